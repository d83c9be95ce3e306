import { Action, Depth, widest } from './access.depth';

/** One row of `role_privilege`, as the grants are loaded. */
export interface PrivilegeRow {
  entity_name: string;
  create: Depth;
  read: Depth;
  write: Depth;
  delete: Depth;
}

/** One row of `role_field_permission`. */
export interface FieldPermissionRow {
  entity_name: string;
  property: string;
  read: boolean;
  update: boolean;
}

/** Every type not named: `entity_name` `*` in a role. */
export const EVERY_TYPE = '*';

/**
 * What a user's roles grant, merged: per entity type and action the widest depth of any
 * role (a role's row for a type overrides that role's `*` row), and the secured
 * properties any role lets the user read or update.
 */
export class Grants {
  private readonly depths = new Map<string, Record<Action, Depth>>();
  /** The same from the rows naming each type alone, for types no `*` row reaches. */
  private readonly namedDepths = new Map<string, Record<Action, Depth>>();
  private readonly readable = new Set<string>();
  private readonly updatable = new Set<string>();

  constructor(
    privileges: (PrivilegeRow & { id_role: number })[],
    fields: FieldPermissionRow[],
    /** The names of the roles held. */
    readonly roles: string[] = [],
  ) {
    const named = new Set(
      privileges
        .filter((p) => p.entity_name !== EVERY_TYPE)
        .map((p) => `${p.id_role}:${p.entity_name}`),
    );
    const rolesOfEveryType = privileges.filter((p) => p.entity_name === EVERY_TYPE);
    const types = new Set(privileges.map((p) => p.entity_name));
    for (const type of types) {
      const rows = privileges.filter((p) => p.entity_name === type);
      this.namedDepths.set(type, widestOf(rows));
      // A role's `*` row counts for a named type only where that role has no row of its own.
      if (type !== EVERY_TYPE) {
        rows.push(...rolesOfEveryType.filter((p) => !named.has(`${p.id_role}:${type}`)));
      }
      this.depths.set(type, widestOf(rows));
    }
    for (const field of fields) {
      const name = `${field.entity_name}.${field.property}`;
      if (field.read) this.readable.add(name);
      if (field.update) this.updatable.add(name);
    }
  }

  /** The depth of an action on a type; with `byName`, from the privileges naming it alone. */
  depth(entityName: string, action: Action, byName = false): Depth {
    if (byName) return this.namedDepths.get(entityName)?.[action] ?? 'none';
    return (this.depths.get(entityName) ?? this.depths.get(EVERY_TYPE))?.[action] ?? 'none';
  }

  mayRead(entityName: string, property: string): boolean {
    return this.readable.has(`${entityName}.${property}`);
  }

  mayUpdate(entityName: string, property: string): boolean {
    return this.updatable.has(`${entityName}.${property}`);
  }
}

/** Per action, the widest depth any of the rows grants. */
function widestOf(rows: PrivilegeRow[]): Record<Action, Depth> {
  let depth: Record<Action, Depth> = {
    create: 'none',
    read: 'none',
    write: 'none',
    delete: 'none',
  };
  for (const row of rows) {
    depth = {
      create: widest(depth.create, row.create),
      read: widest(depth.read, row.read),
      write: widest(depth.write, row.write),
      delete: widest(depth.delete, row.delete),
    };
  }
  return depth;
}
