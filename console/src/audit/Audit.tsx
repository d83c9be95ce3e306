import { FormEvent, useEffect, useState } from 'react';
import { FetchPage, runFetch } from '../api/fetch';
import { ApiError } from '../api/http';
import { cellText } from '../fetch/fetch-text';
import { isoToLocal, TypeIndex } from '../records/record-values';
import { hrefOf } from '../routes';
import { Alert } from '../ui/Alert';
import { useLatest } from '../ui/use-latest';
import { AUDIT_OPERATIONS, AuditFilter, auditQuery } from './audit-query';

/**
 * The organization's change log, for those who may read it: every record written and every
 * security event (sign-ins, failed ones too), filtered by type, operation, user and days,
 * newest first, a page at a time. An entry's record opens its History.
 */
export function Audit({ types }: { types: TypeIndex }) {
  const [filter, setFilter] = useState<AuditFilter>({});
  const [listed, setListed] = useState<FetchPage>();
  const [error, setError] = useState<string>();
  const query = auditQuery(filter);
  const latest = useLatest();

  useEffect(() => {
    setError(undefined);
    latest(runFetch(query))
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
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '') || undefined;
    setFilter({
      entity: text('entity'),
      operation: text('operation'),
      user: text('user'),
      from: text('from'),
      to: text('to'),
    });
  };
  const recordOf = (row: Record<string, unknown>) => {
    const type = types.get(String(row.root_entity));
    if (!type || row.root_key === null) return cellText(row.record_key);
    return (
      <a
        href={hrefOf({
          screen: 'record',
          type: type.name,
          key: Number(row.root_key),
          tab: 'history',
        })}
      >
        {`${type.label} ${String(row.root_key)}`}
      </a>
    );
  };

  return (
    <section className="audit">
      <h2>Audit</h2>
      <form className="filters" aria-label="Filter the audit" onSubmit={apply}>
        <label>
          Type
          <select name="entity" defaultValue="">
            <option value="">any</option>
            {[...types.values()].map((type) => (
              <option key={type.name} value={type.name}>
                {type.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Operation
          <select name="operation" defaultValue="">
            <option value="">any</option>
            {AUDIT_OPERATIONS.map((operation) => (
              <option key={operation} value={operation}>
                {operation.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          User <input name="user" type="search" />
        </label>
        <label>
          From <input name="from" type="date" />
        </label>
        <label>
          To <input name="to" type="date" />
        </label>
        <button type="submit">Filter</button>
      </form>
      <Alert message={error} />
      <table>
        <thead>
          <tr>
            <th>When</th>
            <th>Operation</th>
            <th>Type</th>
            <th>Record</th>
            <th>By</th>
            <th>Through</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          {listed?.rows.map((row) => (
            <tr key={String(row.key)}>
              <td>{isoToLocal(String(row.date_created)).replace('T', ' ')}</td>
              <td>{String(row.operation).replaceAll('_', ' ')}</td>
              <td>{types.get(String(row.entity))?.label ?? String(row.entity)}</td>
              <td>{recordOf(row)}</td>
              <td>{cellText(row.actor_name)}</td>
              <td>{cellText(row.via)}</td>
              <td>{detailText(row.detail)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {listed?.rows.length === 0 && <p>No entries.</p>}
      {listed?.next && (
        <button type="button" onClick={loadMore}>
          Load more
        </button>
      )}
    </section>
  );
}

/** A security event's detail as people read it: `address 198.51.100.7, strategy password`. */
function detailText(detail: unknown): string {
  if (detail === null || typeof detail !== 'object') return '';
  return Object.entries(detail)
    .map(([name, value]) => `${name} ${cellText(value)}`)
    .join(', ');
}
