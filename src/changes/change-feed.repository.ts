import { Injectable } from '@nestjs/common';
import { SystemScope, systemScope, Tenant } from '../access/access.tenant';
import { SAMPLE_TENANT } from '../access/scope.samples';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';
import { ENTRY_COLUMNS, EntryRow } from './change-log.repository';

const FEED_COLUMNS = `${ENTRY_COLUMNS}, root_entity AS "rootEntity", root_key AS "rootKey"`;

/** Its sample: the dispatcher, the one reader of every organization's log. */
const DISPATCH = systemScope('event-dispatch');

/** An entry as the feed reads it: with the record it belongs to. */
export interface FeedRow extends EntryRow {
  rootEntity: string;
  rootKey: number | null;
}

/** Where a range of transactions stops being read: one chunk at a time, in key order. */
export interface FeedRange {
  /** Transactions from this id… */
  from: number;
  /** …to this one (excluded). */
  to: number;
  /** The last key of the range already read. */
  after: number;
}

/**
 * The change log read as a feed of committed writes (src/events/). Its order per record
 * rests on this: a record's entry is written while the record's row is locked (every
 * write of the engine locks it first), and its key drawn then, just before the commit; so
 * of two entries of one record, the later key is of the transaction that committed later.
 *
 * It is read by PostgreSQL transaction id, below the horizon of this database's
 * transactions under way, where every transaction has ended, so no entry can still appear
 * there (a key cursor alone could pass over the keys of a transaction committing late).
 */
@Injectable()
export class ChangeFeedRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The oldest transaction under way in this database that could still write the log (this
   * one included): every one before it has ended (the function change_log_horizon, made by
   * a migration).
   */
  @GenerateSql({ params: [IN_TRANSACTION] })
  async horizon(tx: Transaction): Promise<number> {
    const row = await this.sql.row<{ horizon: number }>(
      'SELECT change_log_horizon() AS horizon',
      [],
      tx,
    );
    return row!.horizon;
  }

  /** The records' own entries (not their child rows') of a range, of these operations. */
  @GenerateSql({
    params: [DISPATCH, { from: 1, to: 100, after: 0 }, ['created'], 500, IN_TRANSACTION],
  })
  recordEntries(
    _system: SystemScope,
    range: FeedRange,
    operations: readonly string[],
    limit: number,
    tx: Transaction,
  ): Promise<FeedRow[]> {
    return this.sql.rows(
      `SELECT ${FEED_COLUMNS} FROM change_log
        WHERE transaction_id >= $1 AND transaction_id < $2 AND key > $3
          AND id_parent_entry IS NULL AND operation = ANY($4::text[])
        ORDER BY key LIMIT $5`,
      [range.from, range.to, range.after, operations, limit],
      tx,
    );
  }

  /** Entries by key (those held back from an earlier range). */
  @GenerateSql({ params: [DISPATCH, [1], IN_TRANSACTION] })
  entries(_system: SystemScope, keys: number[], tx: Transaction): Promise<FeedRow[]> {
    return this.sql.rows(
      `SELECT ${FEED_COLUMNS} FROM change_log WHERE key = ANY($1::int8[]) ORDER BY key`,
      [keys],
      tx,
    );
  }

  /** The child rows' entries (at every level) that these transactions wrote. */
  @GenerateSql({ params: [DISPATCH, [1], IN_TRANSACTION] })
  childEntries(_system: SystemScope, transactions: number[], tx: Transaction): Promise<FeedRow[]> {
    return this.sql.rows(
      `SELECT ${FEED_COLUMNS} FROM change_log
        WHERE transaction_id >= $2 AND transaction_id <= $3 AND transaction_id = ANY($1::int8[])
          AND id_parent_entry IS NOT NULL
        ORDER BY key`,
      [transactions, Math.min(...transactions), Math.max(...transactions)],
      tx,
    );
  }

  /**
   * The keys of the records' own entries, of these operations and below `before`, that a
   * feed at `range` has not read yet: from transactions at or past the range's end, or
   * within it past its last key read. An entry may not go before one of these of its
   * record.
   */
  @GenerateSql({
    params: [
      DISPATCH,
      { from: 1, to: 100, after: 0 },
      ['invoice'],
      [1],
      ['created'],
      10,
      IN_TRANSACTION,
    ],
  })
  unread(
    _system: SystemScope,
    range: FeedRange,
    rootEntities: string[],
    rootKeys: number[],
    operations: readonly string[],
    before: number,
    tx: Transaction,
  ): Promise<{ rootEntity: string; rootKey: number; key: number }[]> {
    return this.sql.rows(
      `SELECT root_entity AS "rootEntity", root_key AS "rootKey", key FROM change_log
        WHERE transaction_id >= $1 AND NOT (transaction_id < $2 AND key <= $3)
          AND root_entity = ANY($4::text[]) AND root_key = ANY($5::int8[])
          AND id_parent_entry IS NULL AND operation = ANY($6::text[]) AND key < $7`,
      [range.from, range.to, range.after, rootEntities, rootKeys, operations, before],
      tx,
    );
  }

  /**
   * A record's entry and the entries of the child rows its write wrote (at every level, with
   * those of other records of its transaction, which their parents tell apart), of the
   * tenant's organization; none once purged.
   */
  @GenerateSql({ params: [SAMPLE_TENANT, 1] })
  recordWrite(tenant: Tenant, key: number): Promise<FeedRow[]> {
    return this.sql.rows(
      `SELECT ${FEED_COLUMNS} FROM change_log
        WHERE id_organization = $2
          AND transaction_id = (SELECT transaction_id FROM change_log
                                 WHERE key = $1 AND id_organization = $2)
          AND (key = $1 OR id_parent_entry IS NOT NULL)
        ORDER BY key`,
      [key, tenant.organizationKey],
    );
  }
}
