import { FormEvent, useEffect, useState } from 'react';
import { ApiError, EntityTypeInfo, runFetch } from './api';
import { ListOptions, listQuery, visibleColumns } from './queries';

interface Listed {
  rows: Record<string, unknown>[];
  next?: string;
  total?: string;
}

/**
 * A type's records through FETCH, as a table: sortable columns, a filter, the total
 * (X-Total-Count) and "Load more" pages by keyset (X-Fetch-Next).
 */
export function RecordList({ type }: { type: EntityTypeInfo }) {
  const [options, setOptions] = useState<ListOptions>({});
  const [listed, setListed] = useState<Listed | undefined>();
  const [error, setError] = useState<string | undefined>();
  const columns = visibleColumns(type);
  const query = listQuery(type, options);

  useEffect(() => {
    setError(undefined);
    runFetch(query, { count: true })
      .then(setListed)
      .catch((e: ApiError) => setError(e.message));
  }, [query]);

  const loadMore = () => {
    if (!listed?.next) return;
    runFetch(query, { cursor: listed.next })
      .then((page) =>
        setListed({ ...listed, rows: [...listed.rows, ...page.rows], next: page.next }),
      )
      .catch((e: ApiError) => setError(e.message));
  };
  const sortBy = (column: string) => {
    const ascending = options.sort?.column === column ? !options.sort.ascending : true;
    setOptions({ ...options, sort: { column, ascending } });
  };
  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOptions({ ...options, filter: String(new FormData(event.currentTarget).get('filter')) });
  };

  return (
    <section>
      <h2>{type.label}</h2>
      <form role="search" onSubmit={filter}>
        <label>
          Filter <input name="filter" type="search" />
        </label>
      </form>
      {error && <p role="alert">{error}</p>}
      {listed?.total !== undefined && <p>{listed.total} records</p>}
      <table>
        <thead>
          <tr>
            {columns.map((column) => {
              const sorted = options.sort?.column === column.name ? options.sort : undefined;
              return (
                <th
                  key={column.name}
                  scope="col"
                  aria-sort={sorted ? (sorted.ascending ? 'ascending' : 'descending') : 'none'}
                >
                  <button type="button" onClick={() => sortBy(column.name)}>
                    {column.label}
                  </button>
                  {/* Seen, not read: aria-sort says the order to assistive technology. */}
                  {sorted && <span aria-hidden="true">{sorted.ascending ? ' ▲' : ' ▼'}</span>}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {listed?.rows.map((row, index) => (
            <tr key={String(row.key ?? index)}>
              {columns.map((column) => (
                <td key={column.name}>{formatValue(row[column.name])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {listed?.next && (
        <button type="button" onClick={loadMore}>
          Load more
        </button>
      )}
    </section>
  );
}

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
