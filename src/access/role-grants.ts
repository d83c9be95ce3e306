import { BadRequestException } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EVERY_TYPE } from './access.grants';

/** The role every organization starts with: what every user could do before roles existed. */
export const MEMBER_ROLE = 'member';

/** Who owns a row: the system columns of the row it is written for. */
export interface RowOwner {
  idOrganization: number;
  idBusinessUnit: number;
  idUser: number;
}

/**
 * Role `member` of a new organization: organization depth on every type and every secured
 * property, as the upgrade gave every organization (what every user could do before roles
 * existed). Administrators narrow it or add roles; users hold it only when given it.
 */
export async function insertMemberRole(
  manager: EntityManager,
  owner: RowOwner,
  secured: { entity: string; property: string }[],
): Promise<void> {
  const ownerValues = [owner.idOrganization, owner.idBusinessUnit, owner.idUser];
  await manager.query(
    `WITH r AS (
       INSERT INTO role (name, description, id_organization, id_business_unit, id_user)
       VALUES ($1, 'Organization depth on every entity type', $2, $3, $4) RETURNING key),
     p AS (
       INSERT INTO role_privilege (id_role, entity_name, "create", read, write, "delete",
                                   id_organization, id_business_unit, id_user)
       SELECT r.key, $5, 'organization', 'organization', 'organization', 'organization',
              $2, $3, $4 FROM r)
     INSERT INTO role_field_permission (id_role, entity_name, property, read, update,
                                        id_organization, id_business_unit, id_user)
     SELECT r.key, f.entity, f.property, true, true, $2, $3, $4
       FROM r, unnest($6::text[], $7::text[]) AS f(entity, property)`,
    [
      MEMBER_ROLE,
      ...ownerValues,
      EVERY_TYPE,
      secured.map((s) => s.entity),
      secured.map((s) => s.property),
    ],
  );
}

/**
 * Gives a user roles of its organization by name (400 naming one that does not exist);
 * a role the user holds already is kept once. The rows share the user's owner, as a child
 * group's rows do.
 */
export async function grantRoles(
  manager: EntityManager,
  user: RowOwner & { key: number },
  roleNames: string[],
): Promise<void> {
  if (roleNames.length === 0) return;
  const roles: { key: number; name: string }[] = await manager.query(
    `SELECT key, name FROM role WHERE id_organization = $1 AND name = ANY($2::text[])`,
    [user.idOrganization, roleNames],
  );
  const missing = roleNames.find((name) => !roles.some((role) => role.name === name));
  if (missing !== undefined) {
    throw new BadRequestException(`No role named "${missing}" in this organization`);
  }
  await manager.query(
    `INSERT INTO user_role (id_parent_user, id_role, id_organization, id_business_unit, id_user)
     SELECT $1, role_key, $3, $4, $5 FROM unnest($2::int8[]) AS role_key
     ON CONFLICT (id_parent_user, id_role) DO NOTHING`,
    [user.key, roles.map((r) => r.key), user.idOrganization, user.idBusinessUnit, user.idUser],
  );
}
