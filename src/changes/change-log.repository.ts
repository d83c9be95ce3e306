import { Injectable } from '@nestjs/common';
import { SystemScope, systemScope, Tenant } from '../access/access.tenant';
import { SAMPLE_TENANT } from '../access/scope.samples';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { pgJson } from '../database/pg-json';
import { quoteIdentifier } from '../database/sql';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';

/** An entry as the repository writes it: one element of the INSERT's JSON array. */
export interface NewEntryRow {
  /** Its place in the batch, and the place of its parent row's entry (or null). */
  ord: number;
  parentOrd: number | null;
  operation: string;
  entity: string;
  recordKey: number | null;
  rootEntity: string;
  rootKey: number | null;
  organizationKey: number | null;
  businessUnitKey: number | null;
  userKey: number | null;
  changes: Record<string, unknown>;
  detail: Record<string, unknown> | null;
  actorKey: number | null;
  actorName: string | null;
  via: string;
  requestId: string | null;
}

/** An entry as it is read back. */
export interface EntryRow {
  key: number;
  dateCreated: Date;
  operation: string;
  entity: string;
  recordKey: number | null;
  idParentEntry: number | null;
  changes: Record<string, unknown>;
  detail: Record<string, unknown> | null;
  idActor: number | null;
  actorName: string | null;
  via: string;
  requestId: string | null;
  transactionId: number;
  idOrganization: number | null;
  idBusinessUnit: number | null;
  idUser: number | null;
}

/** Which of a record's entries a history page holds. */
export interface HistoryFilter {
  /** Entries older than this one (the cursor). */
  before?: number;
  from?: Date;
  to?: Date;
  operations?: string[];
  /** Operations left out whatever `operations` says (what the caller may not see). */
  hidden?: readonly string[];
}

export const ENTRY_COLUMNS = `key, date_created AS "dateCreated", operation, entity,
  record_key AS "recordKey", id_parent_entry AS "idParentEntry", changes, detail,
  id_actor AS "idActor", actor_name AS "actorName", via, request_id AS "requestId",
  transaction_id AS "transactionId", id_organization AS "idOrganization",
  id_business_unit AS "idBusinessUnit", id_user AS "idUser"`;

/** A month's partition holds every organization's entries: made and dropped for them all. */
const KEEPER = systemScope('change-log');

/** `change_log_2026_11`: the partition of one month. */
const PARTITION_NAME = /^change_log_(\d{4})_(\d{2})$/;

/**
 * The SQL of `change_log`. Its writes are one statement per transaction: every entry of
 * the write, keys drawn in the same statement so that a child row's entry can name its
 * parent row's.
 */
@Injectable()
export class ChangeLogRepository {
  constructor(private readonly sql: Sql) {}

  @GenerateSql({
    params: [
      systemScope('change-log'),
      [
        {
          ord: 0,
          parentOrd: null,
          operation: 'created',
          entity: 'organization',
          recordKey: 1,
          rootEntity: 'organization',
          rootKey: 1,
          organizationKey: 1,
          businessUnitKey: 1,
          userKey: 1,
          changes: {},
          detail: null,
          actorKey: 1,
          actorName: 'admin',
          via: 'cli',
          requestId: null,
        },
      ],
      IN_TRANSACTION,
    ],
  })
  async insert(_writer: SystemScope, rows: NewEntryRow[], tx?: Transaction): Promise<void> {
    // One JSON text for the batch: one parameter, whatever the number of columns.
    await this.sql.run(
      `WITH v AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(ord int4, "parentOrd" int4,
           operation text, entity text, "recordKey" int8, "rootEntity" text, "rootKey" int8,
           "organizationKey" int8, "businessUnitKey" int8, "userKey" int8, changes jsonb,
           detail jsonb, "actorKey" int8, "actorName" text, via text, "requestId" text)
       ), numbered AS MATERIALIZED (
         SELECT v.*, nextval('change_log_key_seq') AS key FROM v ORDER BY ord
       )
       INSERT INTO change_log (key, id_parent_entry, operation, entity, record_key,
         root_entity, root_key, id_organization, id_business_unit, id_user, changes, detail,
         id_actor, actor_name, via, request_id, transaction_id, date_created)
       SELECT n.key, p.key, n.operation, n.entity, n."recordKey", n."rootEntity", n."rootKey",
              n."organizationKey", n."businessUnitKey", n."userKey", n.changes, n.detail,
              n."actorKey", n."actorName", n.via, n."requestId", pg_current_xact_id()::text::int8,
              -- Milliseconds, as the API shows the time: an asOf of the shown time includes it.
              date_trunc('milliseconds', statement_timestamp())
         FROM numbered n LEFT JOIN numbered p ON p.ord = n."parentOrd"
        ORDER BY n.ord`,
      [pgJson(rows)],
      tx,
    );
  }

  /** A page of a record's own entries (not its child rows'), newest first. */
  @GenerateSql({
    params: [SAMPLE_TENANT, 'invoice', 1, { operations: ['updated'], hidden: ['signed_in'] }, 50],
  })
  recordEntries(
    tenant: Tenant,
    rootEntity: string,
    rootKey: number,
    filter: HistoryFilter,
    limit: number,
  ): Promise<EntryRow[]> {
    return this.sql.rows(
      `SELECT ${ENTRY_COLUMNS} FROM change_log
        WHERE root_entity = $1 AND root_key = $2 AND id_parent_entry IS NULL
          AND ($3::int8 IS NULL OR key < $3) AND ($4::timestamptz IS NULL OR date_created >= $4)
          AND ($5::timestamptz IS NULL OR date_created < $5) AND ($6::text[] IS NULL OR operation = ANY($6))
          AND operation <> ALL($8::text[]) AND id_organization = $9
        ORDER BY key DESC LIMIT $7`,
      [
        rootEntity,
        rootKey,
        filter.before ?? null,
        filter.from ?? null,
        filter.to ?? null,
        filter.operations ?? null,
        limit,
        filter.hidden ?? [],
        tenant.organizationKey,
      ],
    );
  }

  /**
   * The entries of a record's child rows written by these transactions: each comes after
   * its parent row's entry, drawn by the same statement (keys above `after`, the oldest
   * record entry they may belong to).
   */
  @GenerateSql({ params: [SAMPLE_TENANT, 'invoice', 1, [1], 0] })
  childEntries(
    tenant: Tenant,
    rootEntity: string,
    rootKey: number,
    transactions: number[],
    after: number,
  ): Promise<EntryRow[]> {
    return this.sql.rows(
      `SELECT ${ENTRY_COLUMNS} FROM change_log
        WHERE root_entity = $1 AND root_key = $2 AND id_parent_entry IS NOT NULL
          AND transaction_id = ANY($3::int8[]) AND key > $4 AND id_organization = $5
        ORDER BY key`,
      [rootEntity, rootKey, transactions, after, tenant.organizationKey],
    );
  }

  /** Every entry of a record and its child rows up to an instant, oldest first. */
  @GenerateSql({ params: [SAMPLE_TENANT, 'invoice', 1, new Date(0)] })
  entriesUntil(
    tenant: Tenant,
    rootEntity: string,
    rootKey: number,
    until: Date,
  ): Promise<EntryRow[]> {
    return this.sql.rows(
      `SELECT ${ENTRY_COLUMNS} FROM change_log
        WHERE root_entity = $1 AND root_key = $2 AND date_created <= $3 AND id_organization = $4
        ORDER BY key`,
      [rootEntity, rootKey, until, tenant.organizationKey],
    );
  }

  /**
   * The record's latest own write (not a security event about it): whose it was when last
   * written, and whether that was its deletion.
   */
  @GenerateSql({ params: [SAMPLE_TENANT, 'invoice', 1, ['deleted']] })
  latestWrite(
    tenant: Tenant,
    rootEntity: string,
    rootKey: number,
    operations: readonly string[],
  ): Promise<EntryRow | undefined> {
    return this.sql.row(
      `SELECT ${ENTRY_COLUMNS} FROM change_log
        WHERE root_entity = $1 AND root_key = $2 AND id_parent_entry IS NULL
          AND operation = ANY($3::text[]) AND id_organization = $4
        ORDER BY key DESC LIMIT 1`,
      [rootEntity, rootKey, operations, tenant.organizationKey],
    );
  }

  /** Removes every entry of a record and its child rows; how many there were. */
  @GenerateSql({ params: [SAMPLE_TENANT, 'invoice', 1, IN_TRANSACTION] })
  async purge(
    tenant: Tenant,
    rootEntity: string,
    rootKey: number,
    tx: Transaction,
  ): Promise<number> {
    const { count } = await this.sql.changed(
      'DELETE FROM change_log WHERE root_entity = $1 AND root_key = $2 AND id_organization = $3',
      [rootEntity, rootKey, tenant.organizationKey],
      tx,
    );
    return count;
  }

  /** The months that have a partition of their own, as `YYYY-MM`. */
  @GenerateSql({ params: [KEEPER] })
  async partitionMonths(_system: SystemScope): Promise<string[]> {
    const rows = await this.sql.rows<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i
         JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'change_log'::regclass ORDER BY c.relname`,
    );
    return rows.flatMap(({ name }) => {
      const match = PARTITION_NAME.exec(name);
      return match ? [`${match[1]}-${match[2]}`] : [];
    });
  }

  /**
   * The partition of the month starting at `month` (UTC). A month whose rows already went
   * to the default partition (the server ran past its partitions) keeps them there.
   */
  @GenerateSql({ params: [KEEPER, new Date(Date.UTC(2026, 0, 1)), IN_TRANSACTION] })
  async createPartition(_system: SystemScope, month: Date, tx: Transaction): Promise<void> {
    const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    await this.briefLock(tx);
    // DDL takes no parameters: the bounds are dates this server formats, never input.
    await this.sql.run(
      `CREATE TABLE IF NOT EXISTS ${partitionOf(month)} PARTITION OF change_log
         FOR VALUES FROM ('${month.toISOString()}') TO ('${next.toISOString()}')`,
      [],
      tx,
    );
  }

  /** Drops the partition of a month: its entries go at once, with no DELETE to wait for. */
  @GenerateSql({ params: [KEEPER, new Date(Date.UTC(2026, 0, 1)), IN_TRANSACTION] })
  async dropPartition(_system: SystemScope, month: Date, tx: Transaction): Promise<void> {
    await this.briefLock(tx);
    await this.sql.run(`DROP TABLE IF EXISTS ${partitionOf(month)}`, [], tx);
  }

  /**
   * Partition DDL locks the whole log, which every write inserts into: behind a long
   * query it gives up after a moment (and is tried again later) rather than hold them all.
   */
  private async briefLock(tx: Transaction): Promise<void> {
    await this.sql.run("SET LOCAL lock_timeout = '2s'", [], tx);
  }
}

function partitionOf(month: Date): string {
  const m = String(month.getUTCMonth() + 1).padStart(2, '0');
  return quoteIdentifier(`change_log_${month.getUTCFullYear()}_${m}`);
}
