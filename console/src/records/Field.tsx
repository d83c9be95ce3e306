import type { PropertyInfo } from '../api/entities';
import { LookupPicker } from './LookupPicker';
import { editable, editorOf, FieldValue, TypeIndex } from './record-values';

export interface FieldProps {
  /** Unique in the page: the input's id, and its error's. */
  id: string;
  property: PropertyInfo;
  value: FieldValue;
  onChange: (value: FieldValue) => void;
  types: TypeIndex;
  /** What the server or the form found wrong with the value. */
  error?: string;
  /** The name of the record a lookup points at, when known. */
  lookupLabel?: string;
  /** In a grid row: named by aria-label, its column header being the visible label. */
  inGrid?: boolean;
}

/** One property's input, chosen by its type, with its label and its error. */
export function Field(props: FieldProps) {
  const { id, property, error, inGrid } = props;
  const errorId = `${id}-error`;
  const input = (
    <FieldInput
      {...props}
      aria={{
        'aria-label': inGrid ? property.label : undefined,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
      }}
    />
  );
  const message = error && (
    <span id={errorId} className="field-error">
      {error}
    </span>
  );
  if (inGrid) {
    return (
      <>
        {input}
        {message}
      </>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {property.label}
        {property.required && <span aria-hidden="true"> *</span>}
      </label>
      {input}
      {message}
    </div>
  );
}

interface AriaProps {
  'aria-label'?: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

function FieldInput({
  id,
  property,
  value,
  onChange,
  types,
  lookupLabel,
  inGrid,
  aria,
}: FieldProps & { aria: AriaProps }) {
  const common = { id, name: property.name, ...aria };
  const text = typeof value === 'string' ? value : '';
  const onText = (event: { target: { value: string } }) => onChange(event.target.value);
  if (!editable(property)) {
    const number = property.type === 'decimal' || property.type === 'integer';
    return <input {...common} className={number ? 'number' : undefined} value={text} readOnly />;
  }
  const required = property.required;
  const editor = editorOf(property);
  // A row of a grid stays one line high.
  switch (inGrid && editor === 'textarea' ? 'text' : editor) {
    case 'lookup': {
      const target = types.get(property.lookup!.entity);
      // A type the caller may not read cannot be searched: its key is typed instead.
      if (!target) {
        return (
          <input
            {...common}
            inputMode="numeric"
            value={value === null ? '' : String(value)}
            onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
          />
        );
      }
      return (
        <LookupPicker
          {...common}
          target={target}
          value={typeof value === 'number' ? value : null}
          label={lookupLabel}
          onChange={onChange}
          required={required}
        />
      );
    }
    case 'enum':
      return (
        <select {...common} value={text} onChange={onText} required={required}>
          {!required && <option value="">—</option>}
          {property.enum!.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      );
    case 'boolean':
      return (
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
    case 'textarea':
    case 'json':
      return (
        <textarea
          {...common}
          value={text}
          onChange={onText}
          maxLength={property.maxLength}
          rows={3}
        />
      );
    case 'integer':
    case 'decimal':
      return (
        <input
          {...common}
          className="number"
          inputMode={editor === 'integer' ? 'numeric' : 'decimal'}
          value={text}
          onChange={onText}
          required={required}
        />
      );
    case 'datetime':
      return <input {...common} type="datetime-local" value={text} onChange={onText} />;
    case 'date':
      return <input {...common} type="date" value={text} onChange={onText} />;
    case 'password':
      return (
        <input
          {...common}
          type="password"
          autoComplete="new-password"
          value={text}
          onChange={onText}
        />
      );
    default:
      return (
        <input
          {...common}
          value={text}
          onChange={onText}
          maxLength={property.maxLength}
          required={required}
        />
      );
  }
}
