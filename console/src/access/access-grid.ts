import type { Depth, EntityTypeInfo, Envelope } from '../api/entities';

export const ACTIONS = ['create', 'read', 'write', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];
/** The depths a role may grant, as the server describes them (role_privilege's enum). */
export const depthsOf = (types: EntityTypeInfo[]): Depth[] =>
  (types.find((type) => type.name === 'role_privilege')?.properties.find((p) => p.name === 'read')
    ?.enum as Depth[] | undefined) ?? ['none'];

/** A role's privileges: a depth per type and action. */
export type PrivilegeGrid = Record<string, Record<Action, Depth>>;
/** A role's secured properties: `type.property` → may read, may update. */
export type FieldGrid = Record<string, { read: boolean; update: boolean }>;

/** The types a role governs: the top-level ones (child groups follow their parent). */
export const governedTypes = (types: EntityTypeInfo[]) => types.filter((type) => !type.parent);

/** The secured properties of those types, as `type.property`. */
export const securedProperties = (types: EntityTypeInfo[]) =>
  governedTypes(types).flatMap((type) =>
    type.properties.filter((p) => p.secured).map((p) => ({ type, property: p })),
  );

const NONE: Record<Action, Depth> = { create: 'none', read: 'none', write: 'none', delete: 'none' };

/** The grid of a role as read: every governed type, `none` where the role grants nothing. */
export function privilegeGridOf(types: EntityTypeInfo[], role: Envelope): PrivilegeGrid {
  const grid: PrivilegeGrid = Object.fromEntries(governedTypes(types).map((t) => [t.name, NONE]));
  for (const row of role.children?.role_role_privilege ?? []) {
    const { entity_name: name, ...depths } = row.properties;
    grid[String(name)] = Object.fromEntries(
      ACTIONS.map((action) => [action, (depths[action] as Depth | undefined) ?? 'none']),
    ) as Record<Action, Depth>;
  }
  return grid;
}

export function fieldGridOf(types: EntityTypeInfo[], role: Envelope): FieldGrid {
  const grid: FieldGrid = Object.fromEntries(
    securedProperties(types).map(({ type, property }) => [
      `${type.name}.${property.name}`,
      { read: false, update: false },
    ]),
  );
  for (const row of role.children?.role_role_field_permission ?? []) {
    const { entity_name: type, property, read, update } = row.properties;
    grid[`${String(type)}.${String(property)}`] = { read: read === true, update: update === true };
  }
  return grid;
}

/**
 * The role's two groups as an update sends them (each the new full set, spec 2.2): a row
 * per type granted anything and per property allowed anything, a stored row kept by key.
 */
export function roleChildren(
  role: Envelope,
  privileges: PrivilegeGrid,
  fields: FieldGrid,
): Record<string, Envelope[]> {
  const stored = (group: string, name: (p: Record<string, unknown>) => string) =>
    new Map(
      (role.children?.[group] ?? []).map((row) => [name(row.properties), row.properties.key]),
    );
  const privilegeKeys = stored('role_role_privilege', (p) => String(p.entity_name));
  const fieldKeys = stored(
    'role_role_field_permission',
    (p) => `${String(p.entity_name)}.${String(p.property)}`,
  );
  const withKey = (key: unknown, properties: Record<string, unknown>) =>
    key === undefined ? properties : { key, ...properties };
  return {
    role_role_privilege: Object.entries(privileges)
      .filter(([, depths]) => ACTIONS.some((action) => depths[action] !== 'none'))
      .map(([name, depths]) => ({
        entity_name: 'role_privilege',
        properties: withKey(privilegeKeys.get(name), { entity_name: name, ...depths }),
      })),
    role_role_field_permission: Object.entries(fields)
      .filter(([, allowed]) => allowed.read || allowed.update)
      .map(([path, allowed]) => {
        const [type, property] = path.split('.');
        return {
          entity_name: 'role_field_permission',
          properties: withKey(fieldKeys.get(path), { entity_name: type, property, ...allowed }),
        };
      }),
  };
}

/** A user's role links as an update sends them: those kept by key, the new ones without. */
export function userRoles(user: Envelope, roleKeys: number[]): Envelope[] {
  const stored = new Map(
    (user.children?.user_user_role ?? []).map((row) => [
      row.properties.id_role,
      row.properties.key,
    ]),
  );
  return roleKeys.map((role) => {
    const key = stored.get(role);
    return {
      entity_name: 'user_role',
      properties: key === undefined ? { id_role: role } : { key, id_role: role },
    };
  });
}
