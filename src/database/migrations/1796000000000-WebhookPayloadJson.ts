import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery's body as json (its text kept as written, key order included), not jsonb:
 * every attempt and replay sends the bytes of the first. The bodies recorded so far keep
 * their content.
 */
export class WebhookPayloadJson1796000000000 implements MigrationInterface {
  name = 'WebhookPayloadJson1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "webhook_delivery" ALTER COLUMN "payload" TYPE json USING "payload"::json',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "webhook_delivery" ALTER COLUMN "payload" TYPE jsonb USING "payload"::jsonb',
    );
  }
}
