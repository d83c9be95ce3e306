import type { EntityTypeInfo } from '../api/entities';
import { Field } from './Field';
import { blankValues, formProperties, Row, TypeIndex, Values } from './record-values';

interface ChildGridProps {
  /** The group's name, unique in the form (ids). */
  group: string;
  type: EntityTypeInfo;
  rows: Row[];
  onChange: (rows: Row[]) => void;
  types: TypeIndex;
  /** By row index and property ('' for the row as a whole). */
  problems?: Record<number, Record<string, string>>;
  /** Names of the records the rows' lookups point at, by target type and key. */
  labels: LookupLabels;
}

/**
 * Counts the rows added in this page, for their identity until they have a key (not
 * crypto.randomUUID, which a page served over plain http, not localhost, lacks).
 */
let newRows = 0;

export type LookupLabels = ReadonlyMap<string, ReadonlyMap<number, string>>;

/** A child group as an editable table: a row per child, added and removed in place. */
export function ChildGrid({
  group,
  type,
  rows,
  onChange,
  types,
  problems,
  labels,
}: ChildGridProps) {
  const columns = formProperties(type);
  const change = (index: number, values: Values) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, values } : row)));
  return (
    <table className="child-grid">
      <caption>{type.label}</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          {columns.map((column) => (
            <th key={column.name} scope="col">
              {column.label}
            </th>
          ))}
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => {
          const rowProblems = problems?.[index] ?? {};
          return (
            <tr key={row.key ?? row.id} aria-invalid={rowProblems[''] ? true : undefined}>
              <th scope="row">{index + 1}</th>
              {columns.map((column) => (
                <td key={column.name}>
                  <Field
                    id={`${group}-${index}-${column.name}`}
                    property={column}
                    value={row.values[column.name]}
                    onChange={(value) => change(index, { ...row.values, [column.name]: value })}
                    types={types}
                    error={rowProblems[column.name]}
                    lookupLabel={labelOf(labels, column.lookup?.entity, row.values[column.name])}
                    inGrid
                  />
                </td>
              ))}
              <td>
                <button type="button" onClick={() => onChange(rows.filter((_, i) => i !== index))}>
                  Remove
                </button>
                {rowProblems[''] && <span className="field-error">{rowProblems['']}</span>}
              </td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={columns.length + 2}>
            <button
              type="button"
              onClick={() =>
                onChange([...rows, { id: `new-${++newRows}`, values: blankValues(type) }])
              }
            >
              Add {type.label.toLowerCase()}
            </button>
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

/** The name of the record a lookup value points at, when it is known. */
export function labelOf(labels: LookupLabels, target: string | undefined, key: unknown) {
  return target && typeof key === 'number' ? labels.get(target)?.get(key) : undefined;
}
