import { useCallback, useEffect, useState } from 'react';
import type { EntityTypeInfo, Envelope } from '../api/entities';
import { HistoryEntry, readAsOf, readHistory } from '../api/history';
import { Alert } from '../ui/Alert';
import { useLatest } from '../ui/use-latest';
import { cellText } from '../fetch/fetch-text';
import { displayText, isoToLocal, TypeIndex } from './record-values';

const OPERATIONS: Record<string, string> = {
  created: 'Created',
  updated: 'Changed',
  deleted: 'Deleted',
  assigned: 'Given to another owner',
  version_added: 'New version',
  purged: 'History purged',
};

/**
 * A record's History tab: who changed what, when and through what, newest first; each
 * entry's child rows under it; the record as it was at any entry.
 */
export function RecordHistory({
  type,
  types,
  recordKey,
}: {
  type: EntityTypeInfo;
  types: TypeIndex;
  recordKey: number;
}) {
  const [entries, setEntries] = useState<HistoryEntry[]>();
  const [next, setNext] = useState<string>();
  const [error, setError] = useState<string>();
  const [asOf, setAsOf] = useState<{ at: string; record: Envelope }>();
  const latest = useLatest();

  const load = useCallback(
    async (cursor?: string) => {
      setError(undefined);
      try {
        const page = await latest(readHistory(type.name, recordKey, cursor));
        setEntries((shown) => [...(cursor ? (shown ?? []) : []), ...page.entries]);
        setNext(page.next);
      } catch (failure) {
        setError((failure as Error).message);
      }
    },
    [type, recordKey, latest],
  );
  useEffect(() => {
    setEntries(undefined);
    setAsOf(undefined);
    void load();
  }, [load]);

  const showAsOf = async (at: string) => {
    try {
      setAsOf({ at, record: await readAsOf(type.name, recordKey, at) });
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  return (
    <section className="history" aria-label="History">
      <Alert message={error} />
      {entries?.length === 0 && <p>No changes recorded.</p>}
      <ol className="entries">
        {entries?.map((entry) => (
          <li key={entry.key}>
            <EntryView entry={entry} type={type} types={types} />
            <button type="button" onClick={() => void showAsOf(entry.occurredAt)}>
              Show the record as it was
            </button>
          </li>
        ))}
      </ol>
      {next && (
        <button type="button" onClick={() => void load(next)}>
          Older changes
        </button>
      )}
      {asOf && <AsOfView at={asOf.at} record={asOf.record} type={type} types={types} />}
    </section>
  );
}

function EntryView({
  entry,
  type,
  types,
}: {
  entry: HistoryEntry;
  type: EntityTypeInfo;
  types: TypeIndex;
}) {
  const who = entry.actor.userName ?? entry.actor.via;
  const what = OPERATIONS[entry.operation] ?? entry.operation;
  const when = isoToLocal(entry.occurredAt).replace('T', ' ');
  return (
    <article className="entry" aria-label={`${what} ${when}`}>
      <p className="entry-head">
        <strong>{what}</strong> <time dateTime={entry.occurredAt}>{when}</time> by {who}{' '}
        <span className="via">({entry.actor.via})</span>
      </p>
      <Changes entry={entry} type={type} />
      {entry.withheld && <p className="withheld">Some values are hidden from you.</p>}
      {entry.children.length > 0 && (
        <ul className="children">
          {entry.children.map((child) => {
            const childType = types.get(child.entity);
            const label = childType?.label ?? child.entity;
            return (
              <li key={child.key}>
                {label} {child.recordKey}:{' '}
                {OPERATIONS[child.operation]?.toLowerCase() ?? child.operation}
                {childType && <Changes entry={child} type={childType} />}
              </li>
            );
          })}
        </ul>
      )}
    </article>
  );
}

/** Old → new per property; a create shows the new values, a delete the old ones. */
function Changes({ entry, type }: { entry: HistoryEntry; type: EntityTypeInfo }) {
  // What people changed: not the columns the server keeps (uuid, dates, a row's link to
  // the record it is shown under).
  const shown = (name: string) => !type.properties.find((p) => p.name === name)?.system;
  // An empty value of a new or deleted row says nothing.
  const blank = (change: { old?: unknown; new?: unknown }) =>
    (change.old ?? null) === null && (change.new ?? null) === null;
  const changed = Object.entries(entry.changes).filter(
    ([name, change]) => shown(name) && !blank(change),
  );
  if (changed.length === 0) return null;
  const show = (name: string, value: unknown) => {
    const property = type.properties.find((p) => p.name === name);
    return property ? displayText(property, value) : cellText(value);
  };
  return (
    <table className="changes">
      <tbody>
        {changed.map(([name, change]) => (
          <tr key={name}>
            <th scope="row">{type.properties.find((p) => p.name === name)?.label ?? name}</th>
            <td>{'old' in change ? show(name, change.old) : ''}</td>
            <td>{'old' in change && 'new' in change ? '→' : ''}</td>
            <td>{'new' in change ? show(name, change.new) : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The record as it was: its fields and its child rows, read-only. */
function AsOfView({
  at,
  record,
  type,
  types,
}: {
  at: string;
  record: Envelope;
  type: EntityTypeInfo;
  types: TypeIndex;
}) {
  const title = `${type.label} ${record.properties.key} as it was at ${isoToLocal(at).replace('T', ' ')}`;
  return (
    <section className="as-of" aria-label={title}>
      <h3>{title}</h3>
      <dl>
        {type.properties
          .filter((p) => !p.system && !p.writeOnly && p.name in record.properties)
          .map((p) => (
            <div key={p.name}>
              <dt>{p.label}</dt>
              <dd>{displayText(p, record.properties[p.name])}</dd>
            </div>
          ))}
      </dl>
      {(type.childGroups ?? []).map((group) => {
        const childType = types.get(group.entity);
        const rows = record.children?.[group.name] ?? [];
        if (!childType) return null;
        const columns = childType.properties.filter(
          (p) => !p.system && !p.writeOnly && p.name !== 'key',
        );
        return (
          <table key={group.name} aria-label={`${childType.label} as it was`}>
            <thead>
              <tr>
                {columns.map((p) => (
                  <th key={p.name}>{p.label}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={String(row.properties.key)}>
                  {columns.map((p) => (
                    <td key={p.name}>{displayText(p, row.properties[p.name])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        );
      })}
    </section>
  );
}
