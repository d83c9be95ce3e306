import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where the events' dispatcher is in the change log (src/events/), and an index for its
 * reads by transaction (a B-tree: a BRIN one left each read of a pass scanning the month's
 * partition whole, 2-8 ms on a log of 8,000 entries, as the planner judged).
 *
 * The job queue's own tables (schema `pgboss`) are pg-boss's: it makes and migrates them
 * itself as it starts (src/queue/job-queue.service.ts), so a pg-boss upgrade brings its own
 * migrations. (This migration made them from the construction plan of the pg-boss then
 * installed, version 46 of its schema: a database migrated then starts from there.)
 */
export class Jobs1795800000000 implements MigrationInterface {
  name = 'Jobs1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
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
  }
}
