import { EntityType } from '../model/entity-type';
import { EntityRecord } from '../model/entity-record';
import { AccessScope } from '../access/access.scope';
import { Transaction } from '../database/transaction';
import { EntityStore } from './entity.store';

/**
 * Reads an entity with all its child groups, nested: one statement for the parent and
 * one per child group per level, whatever the number of children.
 */
export async function readTree(
  store: EntityStore,
  tx: Transaction | undefined,
  type: EntityType,
  key: number,
  scope: AccessScope,
  lock = false,
): Promise<EntityRecord | undefined> {
  const row = await store.findOne(tx, type, key, scope, lock);
  if (!row) return undefined;
  const [record] = await attachChildren(store, tx, type, [row], scope);
  return record;
}

async function attachChildren(
  store: EntityStore,
  tx: Transaction | undefined,
  type: EntityType,
  rows: Record<string, unknown>[],
  scope: AccessScope,
): Promise<EntityRecord[]> {
  const records: EntityRecord[] = rows.map((properties) => ({
    entity_name: type.name,
    properties,
    children: {},
  }));
  const byKey = new Map(records.map((r) => [r.properties.key as number, r]));
  for (const group of type.childGroups) {
    for (const record of records) record.children[group.name] = [];
    const childRows = await store.findChildren(
      tx,
      group.child,
      group.parentColumn,
      [...byKey.keys()],
      scope,
    );
    const children = await attachChildren(store, tx, group.child, childRows, scope);
    for (const child of children) {
      byKey.get(child.properties[group.parentColumn] as number)!.children[group.name].push(child);
    }
  }
  return records;
}
