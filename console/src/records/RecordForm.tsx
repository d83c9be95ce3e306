import { FormEvent, useCallback, useEffect, useState } from 'react';
import { deleteRecord, EntityTypeInfo, readRecord, saveRecord } from '../api/entities';
import { fetchRows } from '../api/fetch';
import { ApiError } from '../api/http';
import { hrefOf, navigate } from '../routes';
import { Alert } from '../ui/Alert';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { useLatest } from '../ui/use-latest';
import { ChildGrid, labelOf, LookupLabels } from './ChildGrid';
import { Field } from './Field';
import { RecordHistory } from './RecordHistory';
import { noProblems, Problems, problemsOf } from './problems';
import { lookupKeysOf, lookupLabelsQuery } from './record-queries';
import { envelopeOf, formProperties, RecordState, stateOf, TypeIndex } from './record-values';

interface RecordFormProps {
  type: EntityTypeInfo;
  types: TypeIndex;
  /** The record's key; none for a new one. */
  recordKey?: number;
  /** The record's history instead of its form. */
  tab?: 'history';
  canDelete: boolean;
}

/** A record as read (its key and ETag; none for a new one), and the names of its lookups. */
interface Loaded {
  key?: number;
  etag?: string;
  state: RecordState;
  labels: LookupLabels;
}

/**
 * A record's form, built from its type's metadata: its fields, and a grid per child
 * group, saved in one request (If-Match the ETag read). The server's refusals are shown
 * where they belong: on a field, on a child row and column, or as a stale record to reload.
 */
export function RecordForm({ type, types, recordKey, tab, canDelete }: RecordFormProps) {
  const creating = recordKey === undefined;
  const [loaded, setLoaded] = useState<Loaded>();
  const [problems, setProblems] = useState<Problems>(noProblems());
  const [status, setStatus] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const title = creating ? `New ${type.label.toLowerCase()}` : `${type.label} ${recordKey}`;
  // What was read for another key (the route moved on) is not this record's form.
  const state = loaded && loaded.key === recordKey ? loaded.state : undefined;

  const latest = useLatest();
  const load = useCallback(async () => {
    setProblems(noProblems());
    if (recordKey === undefined) {
      setLoaded({ state: stateOf(type, types), labels: new Map() });
      return;
    }
    try {
      const read = await latest(
        readRecord(type.name, recordKey).then(async ({ envelope, etag }) => {
          const state = stateOf(type, types, envelope);
          return { etag, state, labels: await labelsOf(type, types, state) };
        }),
      );
      setLoaded({ key: recordKey, ...read });
    } catch (error) {
      setProblems({ ...noProblems(), form: (error as Error).message });
    }
  }, [type, types, recordKey, latest]);
  /** Another record, or a stale one: nothing is shown until it is read. */
  const reload = useCallback(() => {
    setLoaded(undefined);
    void load();
  }, [load]);
  useEffect(reload, [reload]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!state) return;
    const built = envelopeOf(type, types, state, creating);
    if ('problems' in built) return setProblems(built.problems);
    setBusy(true);
    setStatus(undefined);
    try {
      const key = await saveRecord(built.envelope, recordKey, loaded?.etag);
      if (!creating) await load();
      setStatus('Saved');
      if (creating) navigate({ screen: 'record', type: type.name, key });
    } catch (error) {
      setProblems(problemsOf(error as ApiError, type, built.envelope));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setConfirming(false);
    try {
      await deleteRecord(type.name, recordKey!, loaded?.etag);
      navigate({ screen: 'records', type: type.name });
    } catch (error) {
      setProblems(problemsOf(error as ApiError, type));
    }
  };
  const edit = (change: (state: RecordState) => RecordState) => {
    setStatus(undefined);
    setLoaded((l) => l && { ...l, state: change(l.state) });
  };
  const labels = loaded?.labels ?? new Map<string, Map<number, string>>();

  return (
    <section className="record">
      <h2>{title}</h2>
      <p>
        <a href={hrefOf({ screen: 'records', type: type.name })}>Back to the list</a>
      </p>
      {!creating && (
        <p className="tabs">
          <a
            href={hrefOf({ screen: 'record', type: type.name, key: recordKey })}
            aria-current={tab ? undefined : 'page'}
          >
            Record
          </a>
          <a
            href={hrefOf({ screen: 'record', type: type.name, key: recordKey, tab: 'history' })}
            aria-current={tab === 'history' ? 'page' : undefined}
          >
            History
          </a>
        </p>
      )}
      {tab === 'history' && recordKey !== undefined ? (
        <RecordHistory type={type} types={types} recordKey={recordKey} />
      ) : (
        <>
          {problems.stale ? (
            <div role="alert" className="stale">
              Someone changed this record after you opened it: reload it to see their change, then
              make yours again.{' '}
              <button type="button" onClick={reload}>
                Reload
              </button>
            </div>
          ) : (
            <Alert message={problems.form} />
          )}
          {status && <p role="status">{status}</p>}
          {state && (
            <form aria-label={title} onSubmit={(event) => void save(event)} noValidate>
              <div className="fields">
                {formProperties(type).map((property) => (
                  <Field
                    key={property.name}
                    id={`field-${property.name}`}
                    property={property}
                    value={state.values[property.name]}
                    onChange={(value) =>
                      edit((s) => ({ ...s, values: { ...s.values, [property.name]: value } }))
                    }
                    types={types}
                    error={problems.fields[property.name]}
                    lookupLabel={labelOf(
                      labels,
                      property.lookup?.entity,
                      state.values[property.name],
                    )}
                  />
                ))}
              </div>
              {(type.childGroups ?? []).map((group) => (
                <ChildGrid
                  key={group.name}
                  group={group.name}
                  type={types.get(group.entity)!}
                  rows={state.children[group.name]}
                  onChange={(rows) =>
                    edit((s) => ({ ...s, children: { ...s.children, [group.name]: rows } }))
                  }
                  types={types}
                  problems={problems.rows[group.name]}
                  labels={labels}
                />
              ))}
              <div className="actions">
                <button type="submit" disabled={busy}>
                  Save
                </button>
                {!creating && canDelete && (
                  <button type="button" className="danger" onClick={() => setConfirming(true)}>
                    Delete
                  </button>
                )}
              </div>
            </form>
          )}
        </>
      )}
      <ConfirmDialog
        question={confirming ? `Delete ${title.toLowerCase()}? This cannot be undone.` : undefined}
        action="Delete"
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}

/** The names of the records a form's lookups point at: one FETCH per target type. */
async function labelsOf(
  type: EntityTypeInfo,
  types: TypeIndex,
  state: RecordState,
): Promise<LookupLabels> {
  const targets = [...lookupKeysOf(type, types, state)];
  const found = await Promise.all(
    targets.map(async ([target, keys]) => {
      const rows = await fetchRows(lookupLabelsQuery(types.get(target)!, keys));
      return [target, new Map(rows.map((row) => [Number(row.key), String(row.label)]))] as const;
    }),
  );
  return new Map(found);
}
