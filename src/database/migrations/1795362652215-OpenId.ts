import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OpenID sign-in: the issuer and subject of users, the provider tokens a session stands
 * on, and the logins under way (`oauth_login`). Generated, less TypeORM's no-op rewrites
 * of every uuid default.
 */
export class OpenId1795362652215 implements MigrationInterface {
  name = 'OpenId1795362652215';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "oauth_login" ("id" uuid NOT NULL, "provider" character varying(100) NOT NULL, "code_verifier" character varying(128) NOT NULL, "nonce" character varying(128) NOT NULL, "redirect_url" character varying(2000) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_cb561f076a5b96fdefa0dcb70bb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`ALTER TABLE "user" ADD "oidc_issuer" character varying(500)`);
    await queryRunner.query(`ALTER TABLE "user" ADD "oidc_subject" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "session" ADD "oidc_provider" character varying(100)`);
    await queryRunner.query(
      `ALTER TABLE "session" ADD "access_expires_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(`ALTER TABLE "session" ADD "refresh_token" text`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_b1906bdc137b5cbddcccebf942" ON "user"  ("oidc_issuer", "oidc_subject") WHERE oidc_subject IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_b1906bdc137b5cbddcccebf942"`);
    await queryRunner.query(`ALTER TABLE "session" DROP COLUMN "refresh_token"`);
    await queryRunner.query(`ALTER TABLE "session" DROP COLUMN "access_expires_at"`);
    await queryRunner.query(`ALTER TABLE "session" DROP COLUMN "oidc_provider"`);
    await queryRunner.query(`ALTER TABLE "user" DROP COLUMN "oidc_subject"`);
    await queryRunner.query(`ALTER TABLE "user" DROP COLUMN "oidc_issuer"`);
    await queryRunner.query(`DROP TABLE "oauth_login"`);
  }
}
