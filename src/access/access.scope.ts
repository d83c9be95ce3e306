import { Identity } from '../common/identity';
import { quoteIdentifier, SqlParameters } from '../database/sql';
import { EntityType, governingType, PropertyDefinition } from '../model/entity-type';
import { Owner } from '../model/owner';
import { Action, Depth, DEPTHS } from './access.depth';
import { holdersOf, Privilege, PRIVILEGES } from './access.privileges';
import { issueTenant, Tenant } from './access.tenant';
import { Grants } from './access.grants';

/**
 * What running something asks of the caller (a workflow method): to be an administrator,
 * to hold one of some roles, or to be granted actions on entity types.
 */
export interface RunRequirement {
  administratorsOnly: boolean;
  roles: string[];
  requires: [EntityType, Action][];
}

/**
 * What one caller may reach: the organization (tenancy) and, inside it, the depth of
 * each action on each entity type and the secured properties it may read or update.
 * The one source of the rows predicate: the entity store, the FETCH compiler and the file
 * store ask it for their WHERE conditions, and no statement of theirs takes a scope-less
 * path. An administrator reaches the whole organization, every property included.
 */
export class AccessScope {
  private readonly units: Set<number>;
  /** The caller's organization, for the repository methods that take a tenant. */
  readonly tenant: Tenant;

  constructor(
    readonly identity: Identity,
    private readonly grants: Grants | 'administrator',
    /** The caller's business unit and every unit below it. */
    readonly unitTree: number[],
    /** The entity types privileges derive from, by name (the registry's). */
    private readonly typeNamed: (name: string) => EntityType | undefined = () => undefined,
  ) {
    this.units = new Set(unitTree);
    this.tenant = issueTenant(identity.organizationKey);
  }

  get organizationKey(): number {
    return this.identity.organizationKey;
  }

  /**
   * An administrator reaches the whole organization, every property included. Private: what
   * an administrator may do beside that is a named privilege (holds), decided here.
   */
  private get isAdministrator(): boolean {
    return this.grants === 'administrator';
  }

  /**
   * How far the caller reaches for an action on a type. Types no role governs (users,
   * units, roles) are the organization's to read; who may change them is the type's
   * `write` setting. A child type has its parent's depth.
   */
  depth(type: EntityType, action: Action): Depth {
    const governing = governingType(type);
    if (this.grants === 'administrator' || !governing.privileges) return 'organization';
    return this.grants.depth(governing.name, action, governing.grantedByName);
  }

  /** The SQL condition: rows of `type` under `alias` the caller may `action`. */
  rows(type: EntityType, action: Action, alias: string, params: SqlParameters): string {
    const depth = this.depth(type, action);
    // Nothing bound for `none`: a parameter the text never names has no type to infer.
    if (depth === 'none') return 'false';
    const column = (name: string) => `${alias}.${quoteIdentifier(name)}`;
    const organization = `${column('id_organization')} = ${params.bind(this.organizationKey, 'int8')}`;
    switch (depth) {
      case 'user':
        return `${organization} AND ${column('id_user')} = ${params.bind(this.identity.userKey, 'int8')}`;
      case 'business_unit':
        return `${organization} AND ${column('id_business_unit')} = ${params.bind(this.identity.businessUnitKey, 'int8')}`;
      case 'business_unit_tree':
        return `${organization} AND ${column('id_business_unit')} = ANY(${params.bind(this.unitTree, 'int8[]')})`;
      case 'organization':
        return organization;
    }
  }

  /** The same rule as `rows`, for a row already read (its owner). */
  allows(type: EntityType, action: Action, owner: Owner): boolean {
    if (owner.organizationKey !== this.organizationKey) return false;
    switch (this.depth(type, action)) {
      case 'none':
        return false;
      case 'user':
        return owner.userKey === this.identity.userKey;
      case 'business_unit':
        return owner.businessUnitKey === this.identity.businessUnitKey;
      case 'business_unit_tree':
        return this.units.has(owner.businessUnitKey);
      case 'organization':
        return true;
    }
  }

  /**
   * Why the caller may not create, change or delete records of `type` through the entity
   * API whatever its roles say (the type's `write` setting: only administrators, nobody,
   * or only its own routes); undefined when its roles decide.
   */
  writeRefusal(type: EntityType): string | undefined {
    if (type.write === 'nobody') return `${type.name} is read-only through this API`;
    if (type.write === 'own-routes') {
      return `${type.name} records are written through their own routes, not this API`;
    }
    if (type.write === 'admin' && !this.isAdministrator) {
      return `Only administrators may change ${type.name}`;
    }
    return undefined;
  }

  /**
   * The depth of an action as it applies through the API: what the type's `write` setting
   * leaves of the roles' (a type only administrators change, or none does, is `none` for
   * everyone else's create, write and delete, whatever a role says); a type its own
   * routes write is as its roles say.
   */
  depthThroughApi(type: EntityType, action: Action): Depth {
    const depth = this.depth(type, action);
    if (action === 'read' || type.write === 'own-routes') return depth;
    return this.writeRefusal(type) ? 'none' : depth;
  }

  /** Why the caller does not hold `privilege` (PRIVILEGES), or undefined when it does. */
  privilegeRefusal(privilege: Privilege): string | undefined {
    // Administrators hold them all, whatever they derive from.
    if (this.isAdministrator) return undefined;
    const { lets, rule } = PRIVILEGES[privilege];
    if (rule === 'administrators') return `Only administrators may ${lets}`;
    const type = this.typeNamed(rule.entity);
    const depth = type ? this.depthThroughApi(type, rule.action) : 'none';
    if (DEPTHS.indexOf(depth) >= DEPTHS.indexOf(rule.depth)) return undefined;
    // The type's own rule, where it is what refuses (webhook: only administrators change it).
    const typeRule = type && rule.action !== 'read' ? this.writeRefusal(type) : undefined;
    return typeRule ?? `Only ${holdersOf(privilege)} may ${lets}`;
  }

  /** Whether the caller holds `privilege` (PRIVILEGES). */
  holds(privilege: Privilege): boolean {
    return this.privilegeRefusal(privilege) === undefined;
  }

  /** Why the caller may not run `what` (a workflow method), or undefined when it may. */
  runRefusal(what: string, requirement: RunRequirement): string | undefined {
    if (requirement.administratorsOnly && !this.isAdministrator) {
      return `Only administrators may run ${what}`;
    }
    if (requirement.roles.length > 0 && !this.holdsAny(requirement.roles)) {
      return `${what} needs one of the roles ${requirement.roles.join(', ')}`;
    }
    for (const [type, action] of requirement.requires) {
      if (this.depthThroughApi(type, action) === 'none')
        return `${what} needs ${action} on ${type.name}`;
    }
    return undefined;
  }

  /** Whether the caller may `action` any record of the type at all. */
  may(type: EntityType, action: Action): boolean {
    return this.depth(type, action) !== 'none';
  }

  /** The roles the caller holds. */
  get roleNames(): string[] {
    return this.grants === 'administrator' ? [] : this.grants.roles;
  }

  /** Whether the caller holds one of these roles (an administrator counts as holding all). */
  holdsAny(roles: string[]): boolean {
    if (this.grants === 'administrator') return true;
    const held = this.grants.roles;
    return roles.some((role) => held.includes(role));
  }

  canRead(type: EntityType, property: PropertyDefinition): boolean {
    if (!property.secured || this.grants === 'administrator') return true;
    return this.grants.mayRead(type.name, property.name);
  }

  canUpdate(type: EntityType, property: PropertyDefinition): boolean {
    if (!property.secured || this.grants === 'administrator') return true;
    return this.grants.mayUpdate(type.name, property.name);
  }
}

/** What application code (hooks, workflows) may ask of the caller's access. */
export type CallerAccess = Pick<AccessScope, 'holds' | 'holdsAny' | 'roleNames'>;
