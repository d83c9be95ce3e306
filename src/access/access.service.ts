import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Identity } from '../common/identity';
import { EntityRegistry } from '../entity/entity.registry';
import { Action, ACTIONS, Depth } from './access.depth';
import { PromiseCache } from '../common/promise-cache';
import { FieldPermissionRow, Grants, PrivilegeRow } from './access.grants';
import { AccessScope } from './access.scope';

/**
 * Where an Identity keeps its scope, not a WeakMap keyed by it: a scope refers to its
 * Identity, and V8's young-generation collections keep such a WeakMap entry alive, so
 * every request's scope reached the old generation, to be freed by a full collection
 * (README, "Performance at scale").
 */
const SCOPE = Symbol('access scope');
type ScopeHolder = Identity & { [SCOPE]?: Promise<AccessScope> };

/**
 * Each caller's AccessScope, from its roles and its unit's tree. Both are cached (per
 * user, per unit) and forgotten whenever roles, privileges, user roles or units change:
 * on this instance when such a write commits, on every instance when PostgreSQL's
 * notification of it arrives (AccessChanges). A warm request reads nothing.
 */
@Injectable()
export class AccessService {
  private grants = new PromiseCache<Grants>();
  private trees = new PromiseCache<number[]>();
  /** Off until AccessChanges listens: without its notifications a cache could go stale. */
  private caching = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly registry: EntityRegistry,
  ) {}

  /**
   * The caller's scope, worked out once per Identity object: each request has its own
   * (the authentication guard copies what a strategy found), so a request sees one scope
   * throughout, and the next one sees the access changes made since. Code outside a
   * request (boot, the CLI) makes an Identity per piece of work, for the same reason.
   */
  scopeOf(identity: Identity): Promise<AccessScope> {
    const holder = identity as ScopeHolder;
    let scope = holder[SCOPE];
    if (!scope) {
      // Not enumerable: a copy of the Identity (the guard's) starts without it.
      Object.defineProperty(holder, SCOPE, { value: (scope = this.loadScope(identity)) });
    }
    return scope;
  }

  private async loadScope(identity: Identity): Promise<AccessScope> {
    // An administrator reaches the whole organization: no unit tree to know.
    if (identity.isAdmin) return new AccessScope(identity, 'administrator', []);
    const unitTree = await this.cached(this.trees, identity.businessUnitKey, () =>
      this.loadTree(identity),
    );
    const grants = await this.cached(this.grants, identity.userKey, () =>
      this.loadGrants(identity),
    );
    return new AccessScope(identity, grants, unitTree);
  }

  /**
   * What a front end needs to hide what the caller cannot do: per top-level entity type,
   * the depth of each action as it applies through the API (a type only administrators
   * change is `none` for others), and the secured properties it may read or update.
   */
  async describe(identity: Identity): Promise<PrivilegesDescription> {
    const scope = await this.scopeOf(identity);
    const entities: PrivilegesDescription['entities'] = {};
    for (const type of this.registry.all().filter((t) => !t.parent)) {
      const depths = Object.fromEntries(
        ACTIONS.map((action) => [action, scope.depthThroughApi(type, action)]),
      ) as Record<Action, Depth>;
      const secured = [...type.properties.values()].filter((p) => p.secured);
      entities[type.name] = {
        ...depths,
        securedProperties: Object.fromEntries(
          secured.map((p) => [
            p.name,
            { read: scope.canRead(type, p), update: scope.canUpdate(type, p) },
          ]),
        ),
      };
    }
    return { roles: scope.roleNames, entities };
  }

  /** Forgets every cached scope: the next request of each user reads its roles again. */
  forget(): void {
    this.grants = new PromiseCache<Grants>();
    this.trees = new PromiseCache<number[]>();
  }

  /** Turns caching on (changes are heard) or off (they may not be); either way forgets. */
  cacheScopes(on: boolean): void {
    this.caching = on;
    this.forget();
  }

  private cached<T>(cache: PromiseCache<T>, key: number, load: () => Promise<T>): Promise<T> {
    return this.caching ? cache.get(String(key), load) : load();
  }

  private async loadGrants(identity: Identity): Promise<Grants> {
    const [row]: {
      privileges: (PrivilegeRow & { id_role: number })[];
      fields: FieldPermissionRow[];
      roles: string[];
    }[] = await this.dataSource.query(
      `SELECT
           (SELECT coalesce(json_agg(json_build_object('id_role', p.id_role,
                     'entity_name', p.entity_name, 'create', p."create", 'read', p.read,
                     'write', p.write, 'delete', p."delete")), '[]')
              FROM user_role ur JOIN role_privilege p ON p.id_role = ur.id_role
             WHERE ur.id_parent_user = $1 AND ur.id_organization = $2) AS privileges,
           (SELECT coalesce(json_agg(json_build_object('entity_name', f.entity_name,
                     'property', f.property, 'read', f.read, 'update', f.update)), '[]')
              FROM user_role ur JOIN role_field_permission f ON f.id_role = ur.id_role
             WHERE ur.id_parent_user = $1 AND ur.id_organization = $2) AS fields,
           (SELECT coalesce(json_agg(r.name), '[]')
              FROM user_role ur JOIN role r ON r.key = ur.id_role
             WHERE ur.id_parent_user = $1 AND ur.id_organization = $2) AS roles`,
      [identity.userKey, identity.organizationKey],
    );
    return new Grants(row.privileges, row.fields, row.roles);
  }

  private async loadTree(identity: Identity): Promise<number[]> {
    const rows: { key: string }[] = await this.dataSource.query(
      `WITH RECURSIVE tree AS (
         SELECT key FROM business_unit WHERE key = $1 AND id_organization = $2
         UNION
         SELECT b.key FROM business_unit b JOIN tree t ON b.id_parent_business_unit = t.key
       ) SELECT key FROM tree`,
      [identity.businessUnitKey, identity.organizationKey],
    );
    return rows.map((row) => Number(row.key));
  }
}

export interface PrivilegesDescription {
  /** The roles the caller holds. */
  roles: string[];
  entities: Record<
    string,
    Record<Action, Depth> & {
      securedProperties: Record<string, { read: boolean; update: boolean }>;
    }
  >;
}
