import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where the events' dispatcher may read the change log up to (src/events/): the oldest
 * transaction under way in this database, this one included, that could still write the
 * log; every transaction before it has ended. A transaction of another database on the same
 * server, or one here that has written nothing (it has no id), holds nothing back, as
 * PostgreSQL's own horizon (`pg_snapshot_xmin`) would. A function, so that the activity is
 * read afresh and after the snapshot: a transaction of this database listed as under way
 * in the snapshot is among those read unless it has ended since.
 */
export class ChangeLogHorizon1796200000000 implements MigrationInterface {
  name = 'ChangeLogHorizon1796200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION change_log_horizon() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        own bigint := pg_current_xact_id()::text::int8;
        snapshot pg_snapshot := pg_current_snapshot();
        oldest bigint;
      BEGIN
        PERFORM pg_stat_clear_snapshot();
        SELECT min(running::text::int8) INTO oldest
          FROM pg_snapshot_xip(snapshot) AS running
         WHERE running::text::int8 % 4294967296 IN (
                 SELECT backend_xid::text::int8 FROM pg_stat_activity
                  WHERE datname = current_database() AND backend_xid IS NOT NULL
                 UNION ALL
                 SELECT transaction::text::int8 FROM pg_prepared_xacts
                  WHERE database = current_database());
        RETURN least(own, coalesce(oldest, pg_snapshot_xmax(snapshot)::text::int8));
      END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION change_log_horizon()');
  }
}
