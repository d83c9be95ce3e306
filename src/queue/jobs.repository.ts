import type { Tenant } from '../access/access.tenant';
import { SAMPLE_TENANT } from '../access/scope.samples';
import { Injectable } from '@nestjs/common';
import { GenerateSql } from '../database/generate-sql';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';

/** A job that failed for good, as administrators see it. */
export interface FailedJobRow {
  id: string;
  queue: string;
  /** The last failure's message (pg-boss keeps the error whole: its stack stays here). */
  error: string | null;
  /** How many attempts were made. */
  attempts: number;
  createdOn: Date;
  failedAt: Date | null;
}

/**
 * Reads pg-boss's job table (its documented shape: docs/sql/job-table.md of pg-boss) for
 * what its API does not answer: the failed jobs of one organization, across queues. A job
 * names its organization in `data.organization` (src/events/ sets it on every job it sends).
 */
@Injectable()
export class JobsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * pg-boss's way to the database for a job sent in `tx`: its statements then go with the
   * write's, and commit or roll back with it.
   */
  executorIn(tx: Transaction): ReturnType<Sql['within']> {
    return this.sql.within(tx);
  }

  @GenerateSql({ params: [SAMPLE_TENANT, 50] })
  failed(tenant: Tenant, limit: number): Promise<FailedJobRow[]> {
    return this.sql.rows<FailedJobRow>(
      `SELECT id::text, name AS queue, output->>'message' AS error, retry_count + 1 AS attempts,
              created_on AS "createdOn", completed_on AS "failedAt"
         FROM pgboss.job
        WHERE state = 'failed' AND data->>'organization' = $1::int8::text
        ORDER BY completed_on DESC, id
        LIMIT $2`,
      [tenant.organizationKey, limit],
    );
  }

  /**
   * Deletes jobs of `queue` that no worker has taken (pg-boss's deleteJob takes any state:
   * a job under way is left to end).
   */
  @GenerateSql({ params: ['webhook-delivery', ['00000000-0000-0000-0000-000000000000']] })
  async deleteWaiting(queue: string, ids: string[]): Promise<void> {
    await this.sql.run(
      `DELETE FROM pgboss.job WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'created'`,
      [queue, ids],
    );
  }

  /** The queue of a failed job of the organization, if it is one. */
  @GenerateSql({ params: [SAMPLE_TENANT, '00000000-0000-0000-0000-000000000000'] })
  async queueOfFailed(tenant: Tenant, id: string): Promise<string | undefined> {
    const row = await this.sql.row<{ queue: string }>(
      `SELECT name AS queue FROM pgboss.job
        WHERE id = $1::uuid AND state = 'failed' AND data->>'organization' = $2::int8::text`,
      [id, tenant.organizationKey],
    );
    return row?.queue;
  }
}
