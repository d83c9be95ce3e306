import { EntityType, SYSTEM_COLUMNS } from '../model/entity-type';
import type { SecurityEvent } from '../model/entity.decorators';
import { ChangeEntry, ValueChange } from './change-log.service';

/**
 * Columns an entry holds no value of: the key and the owner are the entry's own columns,
 * and `date_updated` moves on every write (the entry's time says when).
 */
const NOT_LOGGED = new Set<string>([
  'key',
  'id_organization',
  'id_business_unit',
  'id_user',
  'date_updated',
]);

const LOGGED = new WeakMap<EntityType, string[]>();

/** The properties whose values an entry holds (worked out once per type). */
function logged(type: EntityType): string[] {
  let names = LOGGED.get(type);
  if (!names) {
    names = [...type.properties.values()]
      .filter((p) => !p.hidden && !NOT_LOGGED.has(p.name))
      .map((p) => p.name);
    LOGGED.set(type, names);
  }
  return names;
}

/** A new row's values, as `{new}`. */
export function createdChanges(
  type: EntityType,
  row: Record<string, unknown>,
): Record<string, ValueChange> {
  return Object.fromEntries(logged(type).map((name) => [name, { new: row[name] ?? null }]));
}

/** A deleted row's values, as `{old}`. */
export function deletedChanges(
  type: EntityType,
  row: Record<string, unknown>,
): Record<string, ValueChange> {
  return Object.fromEntries(logged(type).map((name) => [name, { old: row[name] ?? null }]));
}

/** The values that differ between a row as it was and as it is, as `{old, new}`. */
export function updatedChanges(
  type: EntityType,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, ValueChange> {
  const changes: Record<string, ValueChange> = {};
  for (const name of logged(type)) {
    if ((SYSTEM_COLUMNS as readonly string[]).includes(name)) continue;
    const old = before[name] ?? null;
    const now = after[name] ?? null;
    // By value: both sides come as reads return them (decimals as text, dates as ISO).
    if (JSON.stringify(old) !== JSON.stringify(now)) changes[name] = { old, new: now };
  }
  return changes;
}

/**
 * The entries worth writing, in their order: those that say something (any operation
 * but an update without changes) and the entries of the rows above them, which tie a
 * child row's change to its record.
 */
export function entriesWorthWriting(entries: ChangeEntry[]): ChangeEntry[] {
  const kept = new Set<ChangeEntry>();
  for (const entry of entries) {
    const empty = entry.operation === 'updated' && Object.keys(entry.changes ?? {}).length === 0;
    if (empty) continue;
    for (let e: ChangeEntry | undefined = entry; e && !kept.has(e); e = e.parent) kept.add(e);
  }
  return entries.filter((entry) => kept.has(entry));
}

/**
 * The entries with, after them, the security events they are: one per event and record
 * above the rows that carry one (a role whose privileges changed), on that record.
 */
export function withSecurityEvents(
  entries: ChangeEntry[],
  typeOf: (entity: string) => EntityType | undefined,
): ChangeEntry[] {
  const events = new Map<string, ChangeEntry>();
  for (const entry of entries) {
    const operation = securityEventOf(entry, typeOf(entry.entity));
    if (!operation) continue;
    let root = entry;
    while (root.parent) root = root.parent;
    const id = `${operation} ${root.entity} ${root.recordKey}`;
    const event = events.get(id) ?? {
      operation,
      entity: root.entity,
      recordKey: root.recordKey,
      owner: root.owner,
      detail: {},
    };
    event.detail![entry.operation] = ((event.detail![entry.operation] as number) ?? 0) + 1;
    events.set(id, event);
  }
  return events.size === 0 ? entries : [...entries, ...events.values()];
}

/**
 * The security event a written row is: its type's (a role's privilege), or that of a
 * property that is a right, granted or taken by the write (a user's `is_admin`).
 */
function securityEventOf(
  entry: ChangeEntry,
  type: EntityType | undefined,
): SecurityEvent | undefined {
  if (!type) return undefined;
  if (type.securityEvent) return type.securityEvent;
  for (const [property, event] of Object.entries(type.securityProperties)) {
    const change = entry.changes?.[property];
    if (change && (change.new === true || change.old === true)) return event;
  }
  return undefined;
}
