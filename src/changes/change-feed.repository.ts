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

/** What a pass reads, and how much. */
export interface FeedFilter {
  /** The records' operations read (others are passed over). */
  operations: readonly string[];
  /** Entries of the range per read. */
  limit: number;
  /** The types whose records' child rows are read with them. */
  entities: string[];
}

/** A record's entry read: whether it waits behind an earlier one of its record, unread. */
export interface FeedCandidate extends FeedRow {
  waits: boolean;
}

export interface FeedRead {
  /** How many of the candidates are the range's (the others were held back before)… */
  fresh: number;
  /** …and the last key of those. */
  lastFreshKey: number;
  /** In key order. */
  candidates: FeedCandidate[];
  children: FeedRow[];
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

  /**
   * What a feed at `range` reads next, in one statement: the records' own entries of the
   * range past its last key read, a chunk of `limit` in key order, with those held back
   * from earlier ranges (`held`); each says whether it waits behind an earlier entry of its
   * record not read yet (committed in a later range, or in this one past the chunk); and
   * the child rows' entries their transactions wrote, for the records of `entities`.
   */
  @GenerateSql({
    params: [
      DISPATCH,
      { from: 1, to: 100, after: 0 },
      [1],
      { operations: ['created'], limit: 500, entities: ['invoice'] },
      IN_TRANSACTION,
    ],
  })
  async next(
    _system: SystemScope,
    range: FeedRange,
    held: number[],
    { operations, limit, entities }: FeedFilter,
    tx: Transaction,
  ): Promise<FeedRead> {
    const rows = await this.sql.rows<FeedRow & { fresh: boolean | null; waits: boolean | null }>(
      `WITH fresh AS MATERIALIZED (
         SELECT c.*, true AS fresh FROM change_log c
          WHERE transaction_id >= $1 AND transaction_id < $2 AND key > $3
            AND id_parent_entry IS NULL AND operation = ANY($4::text[])
          ORDER BY key LIMIT $5
       ), candidates AS MATERIALIZED (
         SELECT * FROM fresh
         UNION ALL
         SELECT c.*, false FROM change_log c WHERE key = ANY($6::int8[])
       ), unread AS (
         SELECT u.root_entity, u.root_key, min(u.key) AS key FROM change_log u
          WHERE (u.transaction_id >= $2
                 OR (u.transaction_id >= $1 AND u.key > (SELECT coalesce(max(key), $3) FROM fresh)))
            AND u.id_parent_entry IS NULL AND u.operation = ANY($4::text[])
            AND (u.root_entity, u.root_key) IN (SELECT root_entity, root_key FROM candidates)
          GROUP BY u.root_entity, u.root_key
       )
       SELECT ${FEED_COLUMNS}, fresh, waits FROM (
         SELECT c.*, coalesce(u.key < c.key, false) AS waits
           FROM candidates c
           LEFT JOIN unread u ON u.root_entity = c.root_entity AND u.root_key = c.root_key
         UNION ALL
         SELECT c.*, NULL, NULL FROM change_log c
          WHERE c.transaction_id IN (SELECT transaction_id FROM candidates
                                      WHERE entity = ANY($7::text[]))
            AND c.id_parent_entry IS NOT NULL
       ) read
       ORDER BY key`,
      [range.from, range.to, range.after, operations, limit, held, entities],
      tx,
    );
    const read: FeedRead = { fresh: 0, lastFreshKey: range.after, candidates: [], children: [] };
    for (const { fresh, waits, ...entry } of rows) {
      if (fresh === null) read.children.push(entry);
      else {
        if (fresh) {
          read.fresh++;
          read.lastFreshKey = entry.key;
        }
        read.candidates.push({ ...entry, waits: waits === true });
      }
    }
    return read;
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
