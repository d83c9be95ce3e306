import { readableChanges } from './readable-changes';
import { ForbiddenException, Injectable } from '@nestjs/common';
import { AccessScope } from '../access/access.scope';
import { AccessService } from '../access/access.service';
import {
  actorOf,
  ChangeLog,
  RECORD_OPERATIONS,
  SECURITY_OPERATIONS,
  ValueChange,
} from '../changes/change-log.service';
import { ChangeLogRepository, EntryRow, HistoryFilter } from '../changes/change-log.repository';
import { recordAsOf } from '../changes/change-log.replay';
import { Identity } from '../common/identity';
import { Transactions } from '../database/transactions.service';
import { EntityRecord } from '../model/entity-record';
import { EntityRegistry } from '../model/entity.registry';
import { ownerOfRow } from '../model/owner';
import { notFound, unknownType, visibleTo } from './entity.records';
import { EntityStore } from './entity.store';

export type RecordOperation = (typeof RECORD_OPERATIONS)[number];

/** One entry of a record's history, with the entries of its child rows of the same write. */
export interface HistoryEntry {
  key: number;
  occurredAt: string;
  operation: string;
  entity: string;
  recordKey: number | null;
  changes: Record<string, ValueChange>;
  /** Set when properties the caller may not read were left out of `changes`. */
  withheld?: true;
  actor: { userKey: number | null; userName: string | null; via: string; requestId: string | null };
  transactionId: number;
  children: HistoryEntry[];
}

export interface HistoryPage {
  entries: HistoryEntry[];
  /** The cursor of the next (older) page, when there is one. */
  next?: number;
}

/**
 * A record's history and the record as it was, read from the change log. Whoever may
 * read the record may read its history; once it is deleted, whoever could read it then
 * (its last entry's owner, at the caller's depth).
 */
@Injectable()
export class EntityHistoryService {
  constructor(
    private readonly registry: EntityRegistry,
    private readonly store: EntityStore,
    private readonly access: AccessService,
    private readonly entries: ChangeLogRepository,
    private readonly changeLog: ChangeLog,
    private readonly transactions: Transactions,
  ) {}

  async history(
    identity: Identity,
    name: string,
    key: number,
    filter: HistoryFilter,
    limit: number,
  ): Promise<HistoryPage> {
    const { type, scope } = await this.reachable(identity, name, key);
    // Who signed in, when and from where is the audit's to tell (a deliberate grant),
    // not every reader of a user's record.
    const hidden = scope.holds('read-audit') ? [] : SECURITY_OPERATIONS;
    const own = await this.entries.recordEntries(
      scope.tenant,
      type.name,
      key,
      { ...filter, hidden },
      limit + 1,
    );
    const page = own.slice(0, limit);
    if (page.length === 0) return { entries: [] };
    const children = await this.entries.childEntries(
      scope.tenant,
      type.name,
      key,
      [...new Set(page.map((entry) => entry.transactionId))],
      page[page.length - 1].key,
    );
    const entries = nest(page, children).map((entry) => this.shown(scope, entry));
    return { entries, next: own.length > limit ? page[page.length - 1].key : undefined };
  }

  /** The record and its child groups as they were at `instant`. */
  async asOf(identity: Identity, name: string, key: number, instant: Date): Promise<EntityRecord> {
    const { type, scope } = await this.reachable(identity, name, key);
    const entries = await this.entries.entriesUntil(scope.tenant, type.name, key, instant);
    const record = recordAsOf(type, key, entries);
    if (!record) throw notFound(type, key);
    return visibleTo(scope, type, record);
  }

  /**
   * Erases a record's history (on request of the person it is about): for holders of
   * purge-history (the route requires it); one entry remains, saying who purged it and when.
   */
  async purge(identity: Identity, name: string, key: number): Promise<{ purged: number }> {
    const { type, scope, owner, deleted } = await this.reachable(identity, name, key);
    return this.transactions.run(async (tx) => {
      // A write under way would commit its entries after the DELETE saw none: wait for it.
      if (!deleted) await this.store.findOne(tx, type, key, scope, true);
      const purged = await this.entries.purge(scope.tenant, type.name, key, tx);
      this.changeLog.record(tx, actorOf(identity), [
        {
          operation: 'purged',
          entity: type.name,
          recordKey: key,
          owner,
          detail: { entries: purged, recordDeleted: deleted },
        },
      ]);
      return { purged };
    });
  }

  /**
   * The type, and the caller's scope, when the caller may read the record (or could,
   * when it was last written); else 404 as a read.
   */
  private async reachable(identity: Identity, name: string, key: number) {
    const type = this.registry.find(name);
    if (!type) throw unknownType(name, this.registry.all());
    if (type.parent) {
      throw new ForbiddenException(
        `The history of ${name} records is their ${type.parent.type.name}'s`,
      );
    }
    const scope = await this.access.scopeOf(identity);
    const row = await this.store.findOne(undefined, type, key, scope);
    if (row) return { type, scope, owner: ownerOfRow(row), deleted: false };
    // Not readable now: readable if deleted, by whoever could read it then.
    const last = await this.entries.latestWrite(scope.tenant, type.name, key, RECORD_OPERATIONS);
    const deleted =
      last?.operation === 'deleted' ||
      (last?.operation === 'purged' && last.detail?.recordDeleted === true);
    if (!last || !deleted || last.idOrganization === null) throw notFound(type, key);
    const owner = ownerOfRow({
      id_organization: last.idOrganization,
      id_business_unit: last.idBusinessUnit,
      id_user: last.idUser,
    });
    if (!scope.allows(type, 'read', owner)) throw notFound(type, key);
    return { type, scope, owner, deleted };
  }

  /** An entry as the caller may see it: secured values it may not read left out. */
  private shown(scope: AccessScope, entry: NestedEntry): HistoryEntry {
    const { row } = entry;
    const { changes, withheld } = readableChanges(
      scope,
      this.registry.find(row.entity),
      row.changes as Record<string, ValueChange>,
    );
    return {
      key: row.key,
      occurredAt: row.dateCreated.toISOString(),
      operation: row.operation,
      entity: row.entity,
      recordKey: row.recordKey,
      changes,
      ...(withheld ? { withheld: true as const } : {}),
      actor: {
        userKey: row.idActor,
        userName: row.actorName,
        via: row.via,
        requestId: row.requestId,
      },
      transactionId: row.transactionId,
      children: entry.children.map((child) => this.shown(scope, child)),
    };
  }
}

interface NestedEntry {
  row: EntryRow;
  children: NestedEntry[];
}

/** The page's entries, each with the entries of its child rows (children of others dropped). */
function nest(page: EntryRow[], children: EntryRow[]): NestedEntry[] {
  const byKey = new Map<number, NestedEntry>();
  const roots = page.map((row) => {
    const entry = { row, children: [] };
    byKey.set(row.key, entry);
    return entry;
  });
  // Oldest first: a parent row's entry comes before its children's.
  for (const row of children) {
    const parent = byKey.get(row.idParentEntry!);
    if (!parent) continue;
    const entry = { row, children: [] };
    byKey.set(row.key, entry);
    parent.children.push(entry);
  }
  return roots;
}
