import type { FeedRow } from '../changes/change-feed.repository';
import { RECORD_OPERATIONS } from '../changes/change-log.service';
import type { EntityRegistry } from '../model/entity.registry';

/** The operations an event tells of: a record's writes, and a file's new version (not a purge). */
export const EVENT_OPERATIONS = RECORD_OPERATIONS.filter(
  (operation): operation is Exclude<(typeof RECORD_OPERATIONS)[number], 'purged'> =>
    operation !== 'purged',
);
export type EventOperation = (typeof EVENT_OPERATIONS)[number];

/**
 * Why records of `entity` have no events (`unknown…`, a child type, no change log), or
 * undefined when they have. Events are read from the change log, of top-level records.
 */
export function whyNoEvents(registry: EntityRegistry, entity: string): string | undefined {
  const type = registry.find(entity);
  if (!type) return `${entity} is unknown: no entity type has that name`;
  if (type.parent) {
    return `${entity} is a child type: its changes are in its ${type.parent.type.name}'s events`;
  }
  if (!type.audit) return `${entity} keeps no change log (audit: false)`;
  return undefined;
}

/** Of `operations`, those no event tells of. */
export function unknownOperations(operations: readonly string[]): string[] {
  return operations.filter(
    (operation) => !(EVENT_OPERATIONS as readonly string[]).includes(operation),
  );
}

/** A child row's change inside its record's event, as the history shows it. */
export interface ChildChange {
  entity: string;
  key: number | null;
  operation: string;
  changes: Record<string, unknown>;
  children: ChildChange[];
}

/**
 * What happened to one record, read from its change-log entry once the write committed:
 * `id` is the entry's key (an event delivered twice has the same id), `changes` its
 * `{property: {old, new}}`, `children` its child rows' entries of the same write.
 */
export interface EntityEvent {
  id: string;
  /** `invoice.updated` */
  type: string;
  occurredAt: string;
  organization: number | null;
  actor: { user: number | null; name: string | null; via: string; requestId: string | null };
  entity: string;
  key: number | null;
  operation: EventOperation;
  changes: Record<string, unknown>;
  children: ChildChange[];
}

/** The event of a record's entry; `below` holds the child rows' entries by their parent's. */
export function eventOf(entry: FeedRow, below: Map<number, FeedRow[]>): EntityEvent {
  return {
    id: String(entry.key),
    type: `${entry.entity}.${entry.operation}`,
    occurredAt: new Date(entry.dateCreated).toISOString(),
    organization: entry.idOrganization,
    actor: {
      user: entry.idActor,
      name: entry.actorName,
      via: entry.via,
      requestId: entry.requestId,
    },
    entity: entry.entity,
    key: entry.recordKey,
    operation: entry.operation as EventOperation,
    changes: entry.changes,
    children: childrenOf(entry.key, below),
  };
}

function childrenOf(parentKey: number, below: Map<number, FeedRow[]>): ChildChange[] {
  return (below.get(parentKey) ?? []).map((child) => ({
    entity: child.entity,
    key: child.recordKey,
    operation: child.operation,
    changes: child.changes,
    children: childrenOf(child.key, below),
  }));
}

/** Entries grouped by the entry of their parent row. */
export function byParent(entries: FeedRow[]): Map<number, FeedRow[]> {
  const below = new Map<number, FeedRow[]>();
  for (const entry of entries) {
    const siblings = below.get(entry.idParentEntry!) ?? [];
    siblings.push(entry);
    below.set(entry.idParentEntry!, siblings);
  }
  return below;
}
