import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The counts of failed logins, shared by every instance on the database. The shape is
 * rate-limiter-flexible's own for PostgreSQL (it writes and reads this table); made here
 * so that the app never creates tables at run time.
 */
export class LoginLimit1795400000000 implements MigrationInterface {
  name = 'LoginLimit1795400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "login_limit" ("key" character varying(255) NOT NULL, "points" integer NOT NULL DEFAULT 0, "expire" bigint, CONSTRAINT "PK_login_limit" PRIMARY KEY ("key"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "login_limit"`);
  }
}
