import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery keeps its body only where it is not the event as the change log holds it
 * (cut to what the webhook's owner may read, a test): the event's bytes are not written
 * twice. The bodies recorded so far stay.
 */
export class WebhookPayloadFromLog1796100000000 implements MigrationInterface {
  name = 'WebhookPayloadFromLog1796100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "webhook_delivery" ALTER COLUMN "payload" DROP NOT NULL');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // The bodies read from the log cannot be kept without it: those deliveries show none.
    await queryRunner.query(
      `UPDATE "webhook_delivery" SET "payload" = '{}' WHERE "payload" IS NULL`,
    );
    await queryRunner.query('ALTER TABLE "webhook_delivery" ALTER COLUMN "payload" SET NOT NULL');
  }
}
