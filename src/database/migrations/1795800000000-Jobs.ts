import { MigrationInterface, QueryRunner } from 'typeorm';
import { getConstructionPlans, getUninstallPlans } from 'pg-boss';

/**
 * The job queue (src/queue/): pg-boss's own tables in schema `pgboss`, from its own
 * construction plan, in this migration's transaction rather than in one of its own (pg-boss
 * wraps the plan in BEGIN/COMMIT, which would end TypeORM's): the tables then exist
 * wherever the migrations ran (the SQL snapshot tool's database, the tests' template), and
 * pg-boss migrates them itself when a later version needs it. Beside it, where the events'
 * dispatcher is in the change log (src/events/), and an index for its reads by
 * transaction (a B-tree: a BRIN one left each read of a pass scanning the month's
 * partition whole, 2-8 ms on a log of 8,000 entries, as the planner judged).
 */
export class Jobs1795800000000 implements MigrationInterface {
  name = 'Jobs1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const plan = getConstructionPlans(QUEUE_SCHEMA).trim();
    if (!plan.startsWith('BEGIN;') || !plan.endsWith('COMMIT;')) {
      // A later pg-boss whose plan is not one BEGIN … COMMIT would commit this migration midway.
      throw new Error("pg-boss's construction plan is no longer one BEGIN … COMMIT");
    }
    await queryRunner.query(plan.slice('BEGIN;'.length, -'COMMIT;'.length));
    await queryRunner.query(
      `CREATE TABLE "event_dispatch" (
        "name" character varying(63) NOT NULL,
        "range_from" bigint NOT NULL,
        "range_to" bigint NOT NULL,
        "done_key" bigint NOT NULL DEFAULT 0,
        "pending" bigint[] NOT NULL DEFAULT '{}',
        "last_pass" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_event_dispatch" PRIMARY KEY ("name")
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_change_log_transaction" ON "change_log" ("transaction_id") ',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_change_log_transaction"');
    await queryRunner.query('DROP TABLE "event_dispatch"');
    await queryRunner.query(getUninstallPlans(QUEUE_SCHEMA));
  }
}

/**
 * pg-boss's schema, here because the migration makes it (a migration imports nothing above
 * the database layer); src/queue/ uses it, and jobs.repository.ts's SQL names it.
 */
export const QUEUE_SCHEMA = 'pgboss';
