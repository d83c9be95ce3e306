import { Injectable } from '@nestjs/common';
import { Identity } from '../common/identity';
import { PromiseCache } from '../common/promise-cache';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { RequestMemo } from '../http/request-memo';
import { EntityRegistry } from '../model/entity.registry';
import { Action, ACTIONS, Depth } from './access.depth';
import { Grants } from './access.grants';
import { AccessRepository } from './access.repository';
import { Privilege, PRIVILEGE_NAMES } from './access.privileges';
import { AccessScope } from './access.scope';
import { tenantOf } from './access.tenant';

/** Each Identity object's scope, kept on it (a scope refers to its Identity). */
const SCOPES = new RequestMemo<Promise<AccessScope>>('access scope');

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
    private readonly repository: AccessRepository,
    private readonly registry: EntityRegistry,
    private readonly transactions: Transactions,
  ) {}

  /**
   * The caller's scope, worked out once per Identity object: each request has its own
   * (the authentication guard copies what a strategy found), so a request sees one scope
   * throughout, and the next one sees the access changes made since. Code outside a
   * request (boot, the CLI) makes an Identity per piece of work, for the same reason.
   */
  scopeOf(identity: Identity): Promise<AccessScope> {
    return SCOPES.get(identity) ?? SCOPES.set(identity, this.loadScope(identity));
  }

  private async loadScope(identity: Identity): Promise<AccessScope> {
    // An administrator reaches the whole organization: no unit tree to know.
    if (identity.isAdmin) return new AccessScope(identity, 'administrator', [], this.typeNamed);
    const unitTree = await this.cached(this.trees, identity.businessUnitKey, () =>
      this.loadTree(identity),
    );
    const grants = await this.cached(this.grants, identity.userKey, () =>
      this.loadGrants(identity),
    );
    return new AccessScope(identity, grants, unitTree, this.typeNamed);
  }

  private readonly typeNamed = (name: string) => this.registry.find(name);

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
    return {
      roles: scope.roleNames,
      privileges: PRIVILEGE_NAMES.filter((privilege) => scope.holds(privilege)),
      entities,
    };
  }

  /** Forgets every cached scope: the next request of each user reads its roles again. */
  forget(): void {
    this.grants = new PromiseCache<Grants>();
    this.trees = new PromiseCache<number[]>();
  }

  /** Forgets every cached scope once `tx` commits: it changes who may do what. */
  forgetAtCommit(tx: Transaction): void {
    this.transactions.afterCommit(tx, () => this.forget());
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
    const { privileges, fields, roles } = await this.repository.grantsOf(
      identity.userKey,
      tenantOf(identity),
    );
    return new Grants(privileges, fields, roles);
  }

  private loadTree(identity: Identity): Promise<number[]> {
    return this.repository.unitTree(identity.businessUnitKey, tenantOf(identity));
  }
}

export interface PrivilegesDescription {
  /** The roles the caller holds. */
  roles: string[];
  /** The named privileges it holds (access.privileges.ts). */
  privileges: Privilege[];
  entities: Record<
    string,
    Record<Action, Depth> & {
      securedProperties: Record<string, { read: boolean; update: boolean }>;
    }
  >;
}
