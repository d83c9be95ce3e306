import { Injectable } from '@nestjs/common';
import { AccessScope } from '../access/access.scope';
import { ChangeEntry } from '../changes/change-log.service';
import { createdChanges, deletedChanges, updatedChanges } from '../changes/record-changes';
import { Transaction } from '../database/transaction';
import { EntityType } from '../model/entity-type';
import { EntityRecord } from '../model/entity-record';
import { Owner, ownerOfRow } from '../model/owner';
import { EntityStore, LookupGuard } from './entity.store';

/**
 * Where a write happens: the transaction, what the writer may do, and who owns the
 * record written, which its children always share.
 */
export interface WriteContext {
  tx: Transaction;
  scope: AccessScope;
  owner: Owner;
  /** Where the change log's entries of the write go, parents before children; none: not logged. */
  entries?: ChangeEntry[];
}

interface PendingInsert {
  record: EntityRecord;
  /** The link to the parent, for children. */
  link: Record<string, unknown>;
  /** The entry of the parent row, for children. */
  parentEntry?: ChangeEntry;
}

/**
 * Writes entity trees: one multi-row INSERT per child group and level, set-replacement of
 * the child groups an update carries (keyed children updated, unkeyed inserted, missing
 * deleted).
 */
@Injectable()
export class EntityWriter {
  constructor(private readonly store: EntityStore) {}

  /**
   * Inserts records and their children; `lookups` guards the first statement (see
   * EntityStore.insert), which then inserts nothing and returns no keys when it fails.
   */
  async insert(
    context: WriteContext,
    type: EntityType,
    items: PendingInsert[],
    lookups?: LookupGuard,
  ): Promise<number[]> {
    const { tx, scope, owner, entries } = context;
    if (items.length === 0) return [];
    const rows = items.map(({ record, link }) => ({ ...columnsOf(type, record), ...link }));
    const hasChildren = items.some(({ record }) =>
      type.childGroups.some((g) => (record.children[g.name] ?? []).length > 0),
    );
    // Children need their parents' keys: with several parents, draw the keys first rather
    // than trust the order of a multi-row INSERT's RETURNING.
    if (hasChildren && rows.length > 1) {
      const keys = await this.store.drawKeys(tx, type, rows.length);
      rows.forEach((row, i) => (row.key = keys[i]));
    }
    const inserted = await this.store.insert(
      tx,
      type,
      rows,
      scope.tenant,
      owner,
      lookups,
      entries ? 'row' : 'key',
    );
    if (inserted.length < rows.length) return [];
    const keys = inserted.map((row) => row.key as number);
    const logged = inserted.map((row, i) =>
      this.log(context, {
        operation: 'created',
        entity: type.name,
        recordKey: keys[i],
        owner,
        changes: entries && createdChanges(type, row),
        parent: items[i].parentEntry,
      }),
    );
    for (const group of type.childGroups) {
      const children = items.flatMap(({ record }, i) =>
        (record.children[group.name] ?? []).map((child) => ({
          record: child,
          link: { [group.parentColumn]: keys[i] },
          parentEntry: logged[i],
        })),
      );
      await this.insert(context, group.child, children);
    }
    return keys;
  }

  /**
   * Deletes a record (`delete`), or children its parent's update leaves out (`write`),
   * logging each row gone, its children's included (they go by the cascade).
   */
  async delete(
    context: WriteContext,
    type: EntityType,
    rows: EntityRecord[],
    action: 'delete' | 'write',
    parentEntry?: ChangeEntry,
  ): Promise<void> {
    const keys = rows.map((row) => row.properties.key as number);
    await this.store.delete(context.tx, type, keys, context.scope, action);
    if (context.entries) this.logDeleted(context, type, rows, parentEntry);
  }

  private logDeleted(
    context: WriteContext,
    type: EntityType,
    rows: EntityRecord[],
    parent: ChangeEntry | undefined,
  ): void {
    for (const row of rows) {
      const entry = this.log(context, {
        operation: 'deleted',
        entity: type.name,
        recordKey: row.properties.key as number,
        owner: ownerOfRow(row.properties),
        changes: deletedChanges(type, row.properties),
        parent,
      });
      for (const group of type.childGroups) {
        this.logDeleted(context, group.child, row.children[group.name] ?? [], entry);
      }
    }
  }

  /** Adds an entry to the write's log, when it keeps one. */
  private log(context: WriteContext, entry: ChangeEntry): ChangeEntry | undefined {
    if (!context.entries) return undefined;
    context.entries.push(entry);
    return entry;
  }

  /**
   * Applies an update: `merged` holds the values to write (hooks have run on it), `input`
   * says which child groups the request carried, `stored` what was there.
   */
  async update(
    context: WriteContext,
    type: EntityType,
    change: { merged: EntityRecord; input: EntityRecord; stored: EntityRecord },
  ): Promise<void> {
    const { merged, stored } = change;
    const key = stored.properties.key as number;
    const properties = changes(type, merged, stored);
    const [updated] = await this.store.update(
      context.tx,
      type,
      [{ key, properties }],
      context.scope,
      context.entries && 'row',
    );
    const entry = this.log(context, {
      operation: 'updated',
      entity: type.name,
      recordKey: key,
      owner: context.owner,
      changes: updated && updatedChanges(type, stored.properties, updated),
    });
    await this.syncChildren(context, type, key, change, entry);
  }

  private async syncChildren(
    context: WriteContext,
    type: EntityType,
    parentKey: number,
    { merged, input, stored }: { merged: EntityRecord; input: EntityRecord; stored: EntityRecord },
    parentEntry: ChangeEntry | undefined,
  ): Promise<void> {
    const { tx, scope } = context;
    for (const group of type.childGroups) {
      const inputList = input.children[group.name];
      if (!inputList) continue;
      const mergedList = merged.children[group.name];
      const storedList = stored.children[group.name] ?? [];
      const storedByKey = new Map(storedList.map((c) => [c.properties.key as number, c]));
      const keptKeys = new Set(mergedList.map((c) => c.properties.key as number | undefined));

      const gone = storedList.filter((c) => !keptKeys.has(c.properties.key as number));
      await this.delete(context, group.child, gone, 'write', parentEntry);

      const updates = mergedList
        .map((child, index) => ({
          child,
          index,
          previous: storedByKey.get(child.properties.key as number),
        }))
        .filter((entry) => entry.previous);
      const updated = await this.store.update(
        tx,
        group.child,
        updates
          .map(({ child, previous }) => ({
            key: previous!.properties.key as number,
            properties: changes(group.child, child, previous!),
          }))
          .filter((row) => Object.keys(row.properties).length > 0),
        scope,
        context.entries && 'row',
      );
      const now = new Map(updated.map((row) => [row.key as number, row]));
      for (const { child, index, previous } of updates) {
        const childKey = previous!.properties.key as number;
        const after = now.get(childKey);
        const entry = this.log(context, {
          operation: 'updated',
          entity: group.child.name,
          recordKey: childKey,
          owner: context.owner,
          changes: after && updatedChanges(group.child, previous!.properties, after),
          parent: parentEntry,
        });
        await this.syncChildren(
          context,
          group.child,
          childKey,
          { merged: child, input: inputList[index], stored: previous! },
          entry,
        );
      }

      const inserts = mergedList
        .filter((child) => child.properties.key === undefined)
        .map((record) => ({ record, link: { [group.parentColumn]: parentKey }, parentEntry }));
      await this.insert(context, group.child, inserts);
    }
  }
}

/**
 * The columns a write may set: what clients and hooks set (hidden ones such as a password
 * hash included), and `key`; never the system columns or the link to the parent, which
 * the engine sets itself.
 */
function columnsOf(type: EntityType, record: EntityRecord): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record.properties).filter(([name]) => {
      const origin = type.properties.get(name)?.origin;
      return name === 'key' || origin === 'client' || origin === 'computed';
    }),
  );
}

/** The columns whose value differs from the stored one. */
function changes(
  type: EntityType,
  merged: EntityRecord,
  stored: EntityRecord,
): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(columnsOf(type, merged))) {
    // Unchanged values are the stored ones, carried over by the merge; a resent value in
    // another spelling (12.5 for 12.50) is written again, which is harmless.
    if (name !== 'key' && value !== stored.properties[name]) changed[name] = value;
  }
  return changed;
}
