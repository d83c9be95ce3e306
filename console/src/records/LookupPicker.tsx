import { KeyboardEvent, useEffect, useId, useState } from 'react';
import type { EntityTypeInfo } from '../api/entities';
import { fetchRows } from '../api/fetch';
import { lookupSearchQuery } from './record-queries';

interface Choice {
  key: number;
  label: string;
}

interface LookupPickerProps {
  id: string;
  name: string;
  target: EntityTypeInfo;
  value: number | null;
  /** The name of the record `value` points at, when the form knows it. */
  label?: string;
  onChange: (key: number | null) => void;
  required?: boolean;
  'aria-label'?: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

const SEARCH_DELAY_MS = 200;

/**
 * A searchable picker of a lookup (the ARIA combobox pattern): typing searches the
 * target's records by name through FETCH, arrows and Enter or a click choose one.
 */
export function LookupPicker({ target, value, label, onChange, ...input }: LookupPickerProps) {
  const listId = useId();
  const [picked, setPicked] = useState<Choice>();
  const shown = value === null ? '' : picked?.key === value ? picked.label : (label ?? `#${value}`);
  const [text, setText] = useState(shown);
  const [open, setOpen] = useState(false);
  const [choices, setChoices] = useState<Choice[]>([]);
  const [active, setActive] = useState(0);

  // The form learns a name after the first render (its labels are read in one query).
  useEffect(() => setText(shown), [shown]);

  useEffect(() => {
    if (!open) return;
    let current = true; // a later search's answer may come first: only the last one counts
    const timer = setTimeout(() => {
      fetchRows(lookupSearchQuery(target, text === shown ? '' : text))
        .then((rows) => {
          if (!current) return;
          setChoices(
            rows.map((row) => ({ key: Number(row.key), label: String(row.label ?? row.key) })),
          );
          setActive(0);
        })
        .catch(() => setChoices([]));
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [open, text, shown, target]);

  const choose = (choice: Choice | undefined) => {
    setOpen(false);
    if (!choice) return;
    setPicked(choice);
    setText(choice.label);
    onChange(choice.key);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) setOpen(true);
      else setActive((i) => Math.min(i + 1, choices.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter' && open) {
      event.preventDefault();
      choose(choices[active]);
    } else if (event.key === 'Escape') {
      setOpen(false);
      setText(shown);
    }
  };

  return (
    <span className="lookup">
      <input
        {...input}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && choices[active] ? `${listId}-${active}` : undefined}
        autoComplete="off"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          if (event.target.value === '') onChange(null);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setText(shown);
        }}
        onKeyDown={onKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={target.label}
        hidden={!open || choices.length === 0}
      >
        {choices.map((choice, index) => (
          <li
            key={choice.key}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            // Before the input's blur: the choice is made while the list is still there.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(choice);
            }}
          >
            {choice.label}
          </li>
        ))}
      </ul>
    </span>
  );
}
