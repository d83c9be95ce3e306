import { MigrationInterface, QueryRunner } from 'typeorm';

/** Named secrets every instance on the database shares (e.g. the FETCH cursor key). */
export class ServerSecret1795350000000 implements MigrationInterface {
  name = 'ServerSecret1795350000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "server_secret" ("name" character varying(50) NOT NULL, "value" character varying(100) NOT NULL, CONSTRAINT "PK_server_secret" PRIMARY KEY ("name"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "server_secret"`);
  }
}
