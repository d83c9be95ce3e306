import { BadRequestException, Injectable } from '@nestjs/common';
import { EVERY_TYPE } from '../access/access.grants';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';
import type { Tenant } from '../access/access.tenant';
import { SAMPLE_TENANT } from '../access/scope.samples';
import { Owner } from '../model/owner';

/** The role every organization starts with: what every user could do before roles existed. */
export const MEMBER_ROLE = 'member';

const OWNER = { organizationKey: 1, businessUnitKey: 1, userKey: 1 };

/** The SQL of roles outside the entity engine: an organization's first role, role grants. */
@Injectable()
export class RoleRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Role `member` of a new organization: organization depth on every type and every
   * secured property, as the upgrade gave every organization (what every user could do
   * before roles existed). Administrators narrow it or add roles; users hold it only when
   * given it.
   */
  @GenerateSql({
    params: [
      SAMPLE_TENANT,
      OWNER,
      [{ entity: 'account', property: 'credit_limit' }],
      IN_TRANSACTION,
    ],
  })
  async insertMemberRole(
    tenant: Tenant,
    owner: Owner,
    secured: { entity: string; property: string }[],
    tx: Transaction,
  ): Promise<{ key: number; rows: number }> {
    const row = await this.sql.row<{ key: number; rows: number }>(
      `WITH r AS (
         INSERT INTO role (name, description, id_organization, id_business_unit, id_user)
         VALUES ($1, 'Organization depth on every entity type', $2, $3, $4) RETURNING key),
       p AS (
         INSERT INTO role_privilege (id_role, entity_name, "create", read, write, "delete",
                                     id_organization, id_business_unit, id_user)
         SELECT r.key, $5, 'organization', 'organization', 'organization', 'organization',
                $2, $3, $4 FROM r RETURNING 1),
       f AS (
         INSERT INTO role_field_permission (id_role, entity_name, property, read, update,
                                            id_organization, id_business_unit, id_user)
         SELECT r.key, f.entity, f.property, true, true, $2, $3, $4
           FROM r, unnest($6::text[], $7::text[]) AS f(entity, property) RETURNING 1)
       SELECT (SELECT key FROM r) AS key,
              ((SELECT count(*) FROM p) + (SELECT count(*) FROM f))::int4 AS rows`,
      [
        MEMBER_ROLE,
        tenant.organizationKey,
        owner.businessUnitKey,
        owner.userKey,
        EVERY_TYPE,
        secured.map((s) => s.entity),
        secured.map((s) => s.property),
      ],
      tx,
    );
    return row!;
  }

  /**
   * Gives a user roles of its organization by name (400 naming one that does not exist);
   * a role the user holds already is kept once. The rows have the user row's owner, as a
   * child group's rows have their parent's.
   */
  @GenerateSql({ params: [SAMPLE_TENANT, 1, OWNER, ['reader'], IN_TRANSACTION] })
  async grantRoles(
    tenant: Tenant,
    userKey: number,
    userOwner: Owner,
    roleNames: string[],
    tx: Transaction,
  ): Promise<void> {
    if (roleNames.length === 0) return;
    const roles = await this.sql.rows<{ key: number; name: string }>(
      `SELECT key, name FROM role WHERE id_organization = $1 AND name = ANY($2::text[])`,
      [tenant.organizationKey, roleNames],
      tx,
    );
    const missing = roleNames.find((name) => !roles.some((role) => role.name === name));
    if (missing !== undefined) {
      throw new BadRequestException(`No role named "${missing}" in this organization`);
    }
    await this.sql.run(
      `INSERT INTO user_role (id_parent_user, id_role, id_organization, id_business_unit, id_user)
       SELECT $1, role_key, $3, $4, $5 FROM unnest($2::int8[]) AS role_key
       ON CONFLICT (id_parent_user, id_role) DO NOTHING`,
      [
        userKey,
        roles.map((r) => r.key),
        tenant.organizationKey,
        userOwner.businessUnitKey,
        userOwner.userKey,
      ],
      tx,
    );
  }
}
