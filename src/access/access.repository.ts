import { Injectable } from '@nestjs/common';
import { GenerateSql } from '../database/generate-sql';
import { Sql } from '../database/sql.service';
import { FieldPermissionRow, PrivilegeRow } from './access.grants';
import type { Tenant } from './access.tenant';
import { SAMPLE_TENANT } from './scope.samples';

/** What a user's roles grant, as one statement reads them (access.grants.ts merges them). */
export interface GrantRows {
  privileges: (PrivilegeRow & { id_role: number })[];
  fields: FieldPermissionRow[];
  roles: string[];
}

/**
 * The SQL the access scope is built from: a user's grants and a unit's tree. It reads the
 * directory's tables (roles, who holds them, units), whose rows the directory writes and
 * whose writes it announces (AccessChanges): access is built from them, and cannot import
 * the layer that holds their classes.
 */
@Injectable()
export class AccessRepository {
  constructor(private readonly sql: Sql) {}

  /** The privileges, field permissions and role names of the roles a user holds. */
  @GenerateSql({ params: [1, SAMPLE_TENANT] })
  async grantsOf(userKey: number, tenant: Tenant): Promise<GrantRows> {
    const row = await this.sql.row<GrantRows>(
      `SELECT
           (SELECT coalesce(json_agg(json_build_object('id_role', p.id_role,
                     'entity_name', p.entity_name, 'create', p."create", 'read', p.read,
                     'write', p.write, 'delete', p."delete")), '[]')
              FROM user_role ur JOIN role_privilege p ON p.id_role = ur.id_role
             WHERE ur.id_parent_user = $1 AND ur.id_organization = $2
               AND p.id_organization = $2) AS privileges,
           (SELECT coalesce(json_agg(json_build_object('entity_name', f.entity_name,
                     'property', f.property, 'read', f.read, 'update', f.update)), '[]')
              FROM user_role ur JOIN role_field_permission f ON f.id_role = ur.id_role
             WHERE ur.id_parent_user = $1 AND ur.id_organization = $2
               AND f.id_organization = $2) AS fields,
           (SELECT coalesce(json_agg(r.name), '[]')
              FROM user_role ur JOIN role r ON r.key = ur.id_role
             WHERE ur.id_parent_user = $1 AND ur.id_organization = $2
               AND r.id_organization = $2) AS roles`,
      [userKey, tenant.organizationKey],
    );
    return row!;
  }

  /** A business unit of the organization and every unit below it. */
  @GenerateSql({ params: [1, SAMPLE_TENANT] })
  async unitTree(businessUnitKey: number, tenant: Tenant): Promise<number[]> {
    const rows = await this.sql.rows<{ key: number }>(
      `WITH RECURSIVE tree AS (
         SELECT key FROM business_unit WHERE key = $1 AND id_organization = $2
         UNION
         SELECT b.key FROM business_unit b
           JOIN tree t ON b.id_parent_business_unit = t.key AND b.id_organization = $2
       ) SELECT key FROM tree`,
      [businessUnitKey, tenant.organizationKey],
    );
    return rows.map((row) => Number(row.key));
  }
}
