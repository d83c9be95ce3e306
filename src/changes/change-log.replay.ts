import { EntityRecord } from '../model/entity-record';
import { EntityType } from '../model/entity-type';
import { EntryRow } from './change-log.repository';
import { ValueChange } from './change-log.service';

interface RowState {
  entity: string;
  properties: Record<string, unknown>;
}

/**
 * A record and its child rows as they were after `entries` (a record's entries up to an
 * instant, oldest first): each row from its `created` entry on, changed by every later
 * entry of it, gone after its `deleted` one. Undefined when the record did not exist then.
 * System columns come from the entries: the owner from the entry's own columns,
 * `date_updated` from the time of the row's last entry.
 */
export function recordAsOf(
  type: EntityType,
  key: number,
  entries: EntryRow[],
): EntityRecord | undefined {
  const rows = new Map<string, RowState>();
  const idOf = (entity: string, key: number | null) => `${entity}/${key}`;
  for (const entry of entries) {
    const id = idOf(entry.entity, entry.recordKey);
    const changes = entry.changes as Record<string, ValueChange>;
    const time = entry.dateCreated.toISOString();
    if (entry.operation === 'created') {
      rows.set(id, { entity: entry.entity, properties: { key: entry.recordKey } });
    }
    const row = rows.get(id);
    if (!row) continue;
    if (entry.operation === 'deleted') {
      rows.delete(id);
      continue;
    }
    for (const [name, change] of Object.entries(changes)) {
      if ('new' in change) row.properties[name] = change.new;
    }
    row.properties.id_organization = entry.idOrganization;
    row.properties.id_business_unit = entry.idBusinessUnit;
    row.properties.id_user = entry.idUser;
    row.properties.date_created ??= time;
    row.properties.date_updated = time;
  }
  const root = rows.get(idOf(type.name, key));
  if (!root) return undefined;
  return treeOf(type, root, [...rows.values()]);
}

/** The record of `row` with its children; children are owned as their parent is. */
function treeOf(
  type: EntityType,
  row: RowState,
  rows: RowState[],
  owner?: Record<string, unknown>,
): EntityRecord {
  const properties: Record<string, unknown> = {};
  for (const property of type.properties.values()) {
    if (!property.hidden) properties[property.name] = row.properties[property.name] ?? null;
  }
  if (owner) Object.assign(properties, owner);
  const owners = {
    id_organization: properties.id_organization,
    id_business_unit: properties.id_business_unit,
    id_user: properties.id_user,
  };
  const children: EntityRecord['children'] = {};
  for (const group of type.childGroups) {
    children[group.name] = rows
      .filter(
        (child) =>
          child.entity === group.child.name &&
          child.properties[group.parentColumn] === properties.key,
      )
      .sort((a, b) => Number(a.properties.key) - Number(b.properties.key))
      .map((child) => treeOf(group.child, child, rows, owners));
  }
  return { entity_name: type.name, properties, children };
}
