import { useEffect, useState } from 'react';
import { ApiError, EntityTypeInfo, runFetch } from './api';
import { listQuery, visibleColumns } from './queries';

/** The first page of a type's records, fetched with FETCH, as a table. */
export function RecordList({ type }: { type: EntityTypeInfo }) {
  const [rows, setRows] = useState<Record<string, unknown>[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const columns = visibleColumns(type);
  useEffect(() => {
    runFetch(listQuery(type))
      .then(setRows)
      .catch((e: ApiError) => setError(e.message));
  }, [type]);
  return (
    <section>
      <h2>{type.label}</h2>
      {error && <p role="alert">{error}</p>}
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.name} scope="col">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((row, index) => (
            <tr key={String(row.key ?? index)}>
              {columns.map((column) => (
                <td key={column.name}>{formatValue(row[column.name])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
