import { MigrationInterface, QueryRunner } from 'typeorm';

export class OwnerAndLookupIndexes1795635395325 implements MigrationInterface {
  name = 'OwnerAndLookupIndexes1795635395325';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "IDX_bd3071469962f5d079d059f14b" ON "role_field_permission"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_123a83ec40bb0b92a1407263bf" ON "role_field_permission"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_412b668057a830c40da1f022f8" ON "role_privilege"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_357aac0cc09a35a42422fc4838" ON "role_privilege"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_cd4d573798ad592e8db2df1240" ON "role"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_d72a8797641fe2b52283b8ea60" ON "role"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_d7349b0047fda383274cfd7fc0" ON "user_role"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_e3ba86cb27c77db923a474c706" ON "user_role"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_5d131fd2026d75adac99e48dda" ON "user"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_76e2fe4e86af18e6c2e4d32f2f" ON "user"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_88c837cd97f68111f19b7407a9" ON "business_unit"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_2c96e9888f10c3cc9af2cdb567" ON "business_unit"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_ca8560992ce820629e72f8b36f" ON "organization"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_85375423a61af08bc6b8fbc127" ON "organization"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_06ed8935a4f41e9cb1d5251aa7" ON "account"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_584b072dafb60b5afd23ecd8ff" ON "account"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_c577accad0319bfefc1695aa09" ON "contact"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_95c4a3202360e593655e132093" ON "contact"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_1d390a7728a3af64d48df579d1" ON "product"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_0ded2c0b56c972998e8d715c84" ON "product"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_76ce116b2fadc20492a45d2e2e" ON "invoice_line"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_6ee0def6a019437675e4199603" ON "invoice_line"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_501aaa0f1229fbe782c4dca118" ON "invoice_line"  ("id_product") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_dac316193278b45cddd96223e7" ON "invoice"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_9e805357f0698ad2dc8ad80b2f" ON "invoice"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_5917152196f97183c10b756f3a" ON "file_version"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_c06753d3bd9d7e5b5ca81fee66" ON "file_version"  ("id_organization", "id_business_unit") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_cc4721abf72eafb57cf6113bf9" ON "file"  ("id_organization", "id_user") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_cdcef6ffdfd0f41734c3b1d035" ON "file"  ("id_organization", "id_business_unit") ',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_cdcef6ffdfd0f41734c3b1d035"');
    await queryRunner.query('DROP INDEX "public"."IDX_cc4721abf72eafb57cf6113bf9"');
    await queryRunner.query('DROP INDEX "public"."IDX_c06753d3bd9d7e5b5ca81fee66"');
    await queryRunner.query('DROP INDEX "public"."IDX_5917152196f97183c10b756f3a"');
    await queryRunner.query('DROP INDEX "public"."IDX_9e805357f0698ad2dc8ad80b2f"');
    await queryRunner.query('DROP INDEX "public"."IDX_dac316193278b45cddd96223e7"');
    await queryRunner.query('DROP INDEX "public"."IDX_501aaa0f1229fbe782c4dca118"');
    await queryRunner.query('DROP INDEX "public"."IDX_6ee0def6a019437675e4199603"');
    await queryRunner.query('DROP INDEX "public"."IDX_76ce116b2fadc20492a45d2e2e"');
    await queryRunner.query('DROP INDEX "public"."IDX_0ded2c0b56c972998e8d715c84"');
    await queryRunner.query('DROP INDEX "public"."IDX_1d390a7728a3af64d48df579d1"');
    await queryRunner.query('DROP INDEX "public"."IDX_95c4a3202360e593655e132093"');
    await queryRunner.query('DROP INDEX "public"."IDX_c577accad0319bfefc1695aa09"');
    await queryRunner.query('DROP INDEX "public"."IDX_584b072dafb60b5afd23ecd8ff"');
    await queryRunner.query('DROP INDEX "public"."IDX_06ed8935a4f41e9cb1d5251aa7"');
    await queryRunner.query('DROP INDEX "public"."IDX_85375423a61af08bc6b8fbc127"');
    await queryRunner.query('DROP INDEX "public"."IDX_ca8560992ce820629e72f8b36f"');
    await queryRunner.query('DROP INDEX "public"."IDX_2c96e9888f10c3cc9af2cdb567"');
    await queryRunner.query('DROP INDEX "public"."IDX_88c837cd97f68111f19b7407a9"');
    await queryRunner.query('DROP INDEX "public"."IDX_76e2fe4e86af18e6c2e4d32f2f"');
    await queryRunner.query('DROP INDEX "public"."IDX_5d131fd2026d75adac99e48dda"');
    await queryRunner.query('DROP INDEX "public"."IDX_e3ba86cb27c77db923a474c706"');
    await queryRunner.query('DROP INDEX "public"."IDX_d7349b0047fda383274cfd7fc0"');
    await queryRunner.query('DROP INDEX "public"."IDX_d72a8797641fe2b52283b8ea60"');
    await queryRunner.query('DROP INDEX "public"."IDX_cd4d573798ad592e8db2df1240"');
    await queryRunner.query('DROP INDEX "public"."IDX_357aac0cc09a35a42422fc4838"');
    await queryRunner.query('DROP INDEX "public"."IDX_412b668057a830c40da1f022f8"');
    await queryRunner.query('DROP INDEX "public"."IDX_123a83ec40bb0b92a1407263bf"');
    await queryRunner.query('DROP INDEX "public"."IDX_bd3071469962f5d079d059f14b"');
  }
}
