import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event subscribers and scheduled jobs each instance that works queues runs, as it
 * announces them (src/events/): the events' dispatcher routes by all that live instances
 * announce, whatever version it runs, and a schedule no live instance announces is ended.
 */
export class EventHandlers1796300000000 implements MigrationInterface {
  name = 'EventHandlers1796300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "event_handler" (
        "instance" uuid NOT NULL,
        "queue" character varying(255) NOT NULL,
        "entity" character varying(63),
        "operations" text[],
        "schedule" character varying(255),
        "announced_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_event_handler" PRIMARY KEY ("instance", "queue")
      )`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "event_handler"');
  }
}
