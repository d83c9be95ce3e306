import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change log (src/changes/): partitioned by month on `date_created`, which TypeORM
 * cannot generate. Keys come from a sequence of their own, drawn by the statement that
 * writes a transaction's entries. The default partition takes what no month's does;
 * the server makes this month's and the next at boot (ChangeLogPartitions).
 */
export class ChangeLog1795700000000 implements MigrationInterface {
  name = 'ChangeLog1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SEQUENCE "change_log_key_seq" AS bigint');
    await queryRunner.query(
      `CREATE TABLE "change_log" (
        "key" bigint NOT NULL,
        "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT statement_timestamp(),
        "id_organization" bigint,
        "id_business_unit" bigint,
        "id_user" bigint,
        "operation" character varying(40) NOT NULL,
        "entity" character varying(63) NOT NULL,
        "record_key" bigint,
        "root_entity" character varying(63) NOT NULL,
        "root_key" bigint,
        "id_parent_entry" bigint,
        "changes" jsonb NOT NULL DEFAULT '{}',
        "detail" jsonb,
        "id_actor" bigint,
        "actor_name" character varying(255),
        "via" character varying(300) NOT NULL,
        "request_id" character varying(200),
        "transaction_id" bigint NOT NULL,
        CONSTRAINT "PK_change_log" PRIMARY KEY ("key", "date_created")
      ) PARTITION BY RANGE ("date_created")`,
    );
    await queryRunner.query('CREATE TABLE "change_log_default" PARTITION OF "change_log" DEFAULT');
    await queryRunner.query(
      'CREATE INDEX "IDX_change_log_root" ON "change_log" ("root_entity", "root_key", "key")',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_change_log_unit" ON "change_log" ("id_organization", "id_business_unit")',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_change_log_user" ON "change_log" ("id_organization", "id_user")',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "change_log"');
    await queryRunner.query('DROP SEQUENCE "change_log_key_seq"');
  }
}
