import { FormEvent, useEffect, useState } from 'react';
import type { EntityTypeInfo, PropertyInfo } from '../api/entities';
import { FetchPage, Row, runFetch } from '../api/fetch';
import { ApiError } from '../api/http';
import { cellText } from '../fetch/fetch-text';
import { hrefOf } from '../routes';
import { Alert } from '../ui/Alert';
import { useLatest } from '../ui/use-latest';
import {
  displayProperty,
  ListOptions,
  listQuery,
  lookupNameKeys,
  visibleColumns,
} from './record-queries';
import { displayText, TypeIndex } from './record-values';

/**
 * A type's records through FETCH, as a table: sortable columns, a filter, the total
 * (X-Total-Count) and "Load more" pages by keyset (X-Fetch-Next). A record's key and name
 * open it.
 */
export function RecordList({
  type,
  types,
  canCreate,
}: {
  type: EntityTypeInfo;
  types: TypeIndex;
  canCreate: boolean;
}) {
  const [options, setOptions] = useState<ListOptions>({});
  const [listed, setListed] = useState<FetchPage | undefined>();
  const [error, setError] = useState<string | undefined>();
  const columns = visibleColumns(type);
  const nameKeys = lookupNameKeys(type, types);
  const named = displayProperty(type);
  const query = listQuery(type, types, options);

  const latest = useLatest();
  useEffect(() => {
    setError(undefined);
    latest(runFetch(query, { count: true }))
      .then(setListed)
      .catch((e: ApiError) => setError(e.message));
  }, [query, latest]);

  const loadMore = () => {
    if (!listed?.next) return;
    latest(runFetch(query, { cursor: listed.next }))
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
  const cell = (row: Row, column: PropertyInfo) => {
    // The record opens from its key and from its name, the column people look for.
    if (column.name === 'key' || column.name === named) {
      const text = column.name === 'key' ? String(row.key) : displayText(column, row[column.name]);
      return (
        <a href={hrefOf({ screen: 'record', type: type.name, key: Number(row.key) })}>
          {text || `(no ${column.label.toLowerCase()})`}
        </a>
      );
    }
    const name = nameKeys.get(column.name);
    return name && row[name] !== null ? cellText(row[name]) : displayText(column, row[column.name]);
  };

  return (
    <section>
      <h2>{type.label}</h2>
      <div className="toolbar">
        <form role="search" onSubmit={filter}>
          <label>
            Filter <input name="filter" type="search" />
          </label>
        </form>
        {canCreate && (
          <a className="button" href={hrefOf({ screen: 'record', type: type.name })}>
            New {type.label.toLowerCase()}
          </a>
        )}
      </div>
      <Alert message={error} />
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
                <td key={column.name} className={column.lookup ? undefined : `type-${column.type}`}>
                  {cell(row, column)}
                </td>
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
