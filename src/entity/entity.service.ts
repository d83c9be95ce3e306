import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
  PreconditionFailedException,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Action } from '../access/access.depth';
import { AccessScope } from '../access/access.scope';
import { AccessService } from '../access/access.service';
import { Identity } from '../common/identity';
import { etagMatches } from '../common/etag';
import { ScopedData } from '../data/scoped-data';
import { FetchService } from '../fetch/fetch.service';
import { translateDatabaseError } from './database-errors';
import { EntityRegistry } from './entity.registry';
import { EntityType } from './entity-type';
import { BusinessRuleError, HookEvent, HookFailedException } from './entity.errors';
import { parseEnvelope, textOf } from './entity.input';
import { EntityRecord } from './entity-record';
import { EntityStore, Owner } from './entity.store';
import { readTree } from './entity-tree';
import { EntityWriter } from './entity.writer';
import { HookRunner } from './hook-runner';
import { Lookups } from './lookups';

export const WRITE_OPERATIONS = ['insert', 'update', 'delete', 'assign'] as const;

export interface WriteResult {
  operation: (typeof WRITE_OPERATIONS)[number];
  key: number;
}

/**
 * The transaction a call joins, a hook's or a workflow's (its writes and the caller's are
 * one), and the workflow method whose work it is, which hooks are told.
 */
export interface JoinedTransaction {
  manager: EntityManager;
  workflow?: string;
}

export interface ReadResult {
  entity: EntityRecord;
  etag: string;
}

/**
 * The entity API's semantics (spec 4.2, DESIGN.md): reads with every child group, writes
 * of a parent and its children in one transaction with the hooks inside it. Every
 * statement carries the caller's AccessScope: a record beyond the caller's read depth is
 * a 404, one it may read but not change a 403, and secured properties it may not read are
 * left out. Workflows call it with their own transaction's manager, so their writes and
 * these are one.
 */
@Injectable()
export class EntityService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly registry: EntityRegistry,
    private readonly store: EntityStore,
    private readonly writer: EntityWriter,
    private readonly hooks: HookRunner,
    private readonly access: AccessService,
    private readonly moduleRef: ModuleRef,
  ) {}

  private fetchService?: FetchService;

  async read(
    identity: Identity,
    name: string,
    key: number,
    joined?: JoinedTransaction,
  ): Promise<ReadResult> {
    const type = this.typeOf(name);
    const scope = await this.access.scopeOf(identity);
    const manager = joined?.manager ?? this.dataSource.manager;
    const stored = await readTree(this.store, manager, type, key, scope, false);
    if (!stored) throw notFound(type, key);
    const entity = visibleTo(scope, type, stored);
    return { entity, etag: etagOf(entity) };
  }

  async create(
    identity: Identity,
    name: string,
    body: unknown,
    joined?: JoinedTransaction,
  ): Promise<WriteResult> {
    const type = this.writableType(identity, name);
    const input = parseEnvelope(type, body, 'create');
    const scope = await this.access.scopeOf(identity);
    if (!scope.may(type, 'create')) {
      throw new ForbiddenException(`You may not create ${type.name} records`);
    }
    assertUpdatable(scope, type, input, type.name);
    const lookups = new Lookups(this.registry, type, input);
    return this.transaction(joined, async (tx, forHooks) => {
      await this.lookupsFirst(lookups, tx, scope, () =>
        this.runHooks('onBeforeInsert', type, input, undefined, forHooks, scope),
      );
      const context = { manager: tx, scope, owner: ownerOf(scope.identity) };
      const record = [{ record: input, link: {} }];
      const [key] = await this.writer.insert(context, type, record, lookups.guard(scope));
      if (key === undefined) {
        await lookups.check(this.store, tx, scope);
        throw new ConflictException(
          `A record this ${type.name} points at changed while it was written: send it again`,
        );
      }
      return { operation: 'insert', key };
    });
  }

  async update(
    identity: Identity,
    name: string,
    key: number,
    body: unknown,
    ifMatch?: string,
    joined?: JoinedTransaction,
  ): Promise<WriteResult> {
    const type = this.writableType(identity, name);
    const input = parseEnvelope(type, body, 'update');
    if (input.properties.key !== undefined && input.properties.key !== key) {
      throw new BadRequestException(
        `${type.name}.key: ${textOf(input.properties.key)} does not match the key ${key} in the path`,
      );
    }
    const scope = await this.access.scopeOf(identity);
    return this.transaction(joined, async (tx, forHooks) => {
      const stored = await this.lockFor('write', tx, type, key, ifMatch, scope);
      assertUpdatable(scope, type, input, type.name);
      const merged = mergeInto(stored, input, type.name);
      await new Lookups(this.registry, type, input).check(this.store, tx, scope);
      await this.runHooks('onBeforeUpdate', type, merged, stored, forHooks, scope, input);
      const context = { manager: tx, scope, owner: ownerOf(stored.properties) };
      await this.writer.update(context, type, { merged, input, stored });
      return { operation: 'update', key };
    });
  }

  async delete(
    identity: Identity,
    name: string,
    key: number,
    ifMatch?: string,
    joined?: JoinedTransaction,
  ): Promise<WriteResult> {
    const type = this.writableType(identity, name);
    const scope = await this.access.scopeOf(identity);
    return this.transaction(joined, async (tx, forHooks) => {
      const stored = await this.lockFor('delete', tx, type, key, ifMatch, scope);
      await this.runHooks('onBeforeDelete', type, stored, stored, forHooks, scope);
      await this.store.delete(tx, type, [key], scope, 'delete');
      return { operation: 'delete', key };
    });
  }

  /**
   * Gives a record and its children to another user of the organization and that user's
   * business unit: the caller must be allowed to write it where it is and where it goes.
   */
  async assign(
    identity: Identity,
    name: string,
    key: number,
    userKey: number,
    joined?: JoinedTransaction,
  ): Promise<WriteResult> {
    // Roles decide who may move a record they govern, even one written elsewhere (files).
    const type = this.typeOf(name).privileges
      ? this.topLevelType(name)
      : this.writableType(identity, name);
    const scope = await this.access.scopeOf(identity);
    return this.transaction(joined, async (tx) => {
      const stored = await this.lockFor('write', tx, type, key, undefined, scope);
      const user = await this.store.findOne(tx, this.registry.find('user')!, userKey, scope);
      if (!user) throw new BadRequestException(`userKey: no user with key ${userKey}`);
      const owner = ownerOf(user, userKey);
      const moved = {
        id_organization: owner.organizationKey,
        id_user: owner.userKey,
        id_business_unit: owner.businessUnitKey,
      };
      if (!scope.allows(type, 'write', moved)) {
        throw new ForbiddenException(
          `You may not give ${type.name} ${key} to user ${userKey}: you could not write it there`,
        );
      }
      for (const [rowsType, keys] of keysByType(type, stored)) {
        await this.store.assign(tx, rowsType, keys, owner, scope);
      }
      return { operation: 'assign', key };
    });
  }

  /**
   * The scoped data API inside `joined`'s transaction, for the hooks and workflows
   * running in it: this engine and FETCH, as the caller.
   */
  scopedData(identity: Identity, joined: JoinedTransaction): ScopedData {
    // Looked up when first used (FetchModule comes after this global module), then kept:
    // every write's hooks get a ScopedData.
    this.fetchService ??= this.moduleRef.get(FetchService, { strict: false });
    return new ScopedData(this, this.fetchService, identity, joined);
  }

  /** The stored record, locked: 404 when the caller may not read it, 403 when not `action` it. */
  private async lockFor(
    action: Extract<Action, 'write' | 'delete'>,
    manager: EntityManager,
    type: EntityType,
    key: number,
    ifMatch: string | undefined,
    scope: AccessScope,
  ): Promise<EntityRecord> {
    const stored = await readTree(this.store, manager, type, key, scope, true);
    if (!stored) throw notFound(type, key);
    if (!scope.allows(type, action, stored.properties)) {
      throw new ForbiddenException(
        `You may not ${action === 'write' ? 'change' : 'delete'} ${type.name} ${key}`,
      );
    }
    if (ifMatch !== undefined && !etagMatches(ifMatch, etagOf(visibleTo(scope, type, stored)))) {
      throw new PreconditionFailedException(
        `${type.name} ${key} has changed since it was read (If-Match)`,
      );
    }
    return stored;
  }

  private async runHooks(
    event: HookEvent,
    type: EntityType,
    entity: EntityRecord,
    stored: EntityRecord | undefined,
    joined: JoinedTransaction,
    { identity }: AccessScope,
    carried?: EntityRecord,
  ): Promise<void> {
    try {
      const run = { identity, workflow: joined.workflow, data: this.scopedData(identity, joined) };
      await this.hooks.run(event, type, entity, stored, run, carried);
    } catch (error) {
      if (error instanceof BusinessRuleError)
        throw new HookFailedException(event, type.name, error);
      throw error;
    }
  }

  /**
   * Work before a write that checks its lookups itself. When the work fails (a hook's
   * 424, say), a lookup to a row the caller may not read is still the answer, as if it
   * had been checked first: the hooks may have failed for want of that row. When the
   * check cannot run (the failure aborted the transaction), the failure is the answer.
   */
  private async lookupsFirst(
    lookups: Lookups,
    manager: EntityManager,
    scope: AccessScope,
    work: () => Promise<void>,
  ): Promise<void> {
    try {
      await work();
    } catch (error) {
      const missing = await lookups.check(this.store, manager, scope).then(
        () => undefined,
        (checkError: unknown) =>
          checkError instanceof BadRequestException ? checkError : undefined,
      );
      throw missing ?? error;
    }
  }

  /**
   * Joins the caller's transaction (a hook's or a workflow's) or opens one; `work` gets its
   * manager, and the transaction as the hooks it runs are to join it.
   */
  private async transaction<T>(
    joined: JoinedTransaction | undefined,
    work: (manager: EntityManager, forHooks: JoinedTransaction) => Promise<T>,
  ): Promise<T> {
    try {
      if (joined?.manager.queryRunner?.isTransactionActive)
        return await work(joined.manager, joined);
      return await this.dataSource.transaction((tx) => work(tx, { ...joined, manager: tx }));
    } catch (error) {
      throw translateDatabaseError(error);
    }
  }

  /** A type to read: a child type reads under its parent's privileges. */
  private typeOf(name: string): EntityType {
    const type = this.registry.find(name);
    if (!type) throw new NotFoundException(`Unknown entity type "${name}"`);
    return type;
  }

  /** A type whose records are written on their own: a child's go through its parent. */
  private topLevelType(name: string): EntityType {
    const type = this.typeOf(name);
    if (type.parent) {
      throw new ForbiddenException(
        `${name} records are written through their ${type.parent.type.name}'s child group`,
      );
    }
    return type;
  }

  private writableType(identity: Identity, name: string): EntityType {
    const type = this.topLevelType(name);
    if (type.write === 'nobody')
      throw new ForbiddenException(`${name} is read-only through this API`);
    if (type.write === 'admin' && !identity.isAdmin) {
      throw new ForbiddenException(`Only administrators may change ${name}`);
    }
    return type;
  }
}

/**
 * The entity as it will be after the update: stored properties under the incoming ones;
 * a child group the request carries replaces the stored one, keyed children merged with
 * their stored selves.
 */
function mergeInto(stored: EntityRecord, input: EntityRecord, path: string): EntityRecord {
  // A copy: hooks may change what they are given, and `stored` must stay as it was read.
  const children = structuredClone(stored.children);
  for (const [group, list] of Object.entries(input.children)) {
    const storedByKey = new Map((stored.children[group] ?? []).map((c) => [c.properties.key, c]));
    children[group] = list.map((child, index) => {
      if (child.properties.key === undefined) return child;
      const previous = storedByKey.get(child.properties.key);
      if (!previous) {
        throw new BadRequestException(
          `${group}[${index}].key: ${textOf(child.properties.key)} is not a child of this ${path}`,
        );
      }
      return mergeInto(previous, child, child.entity_name);
    });
  }
  return {
    entity_name: stored.entity_name,
    properties: { ...stored.properties, ...input.properties },
    children,
  };
}

export function etagOf(entity: EntityRecord): string {
  return `"${createHash('sha256').update(JSON.stringify(entity)).digest('base64url').slice(0, 27)}"`;
}

/** A new record's owner: its creator (an identity), or a stored row's owner columns. */
function ownerOf(source: Identity | Record<string, unknown>, userKey?: number): Owner {
  if ('organizationKey' in source) {
    const { organizationKey, businessUnitKey, userKey: key } = source as Identity;
    return { organizationKey, businessUnitKey, userKey: key };
  }
  return {
    organizationKey: Number(source.id_organization),
    businessUnitKey: Number(source.id_business_unit),
    userKey: userKey ?? Number(source.id_user),
  };
}

/** The record without the secured properties the caller may not read, children included. */
function visibleTo(scope: AccessScope, type: EntityType, record: EntityRecord): EntityRecord {
  if (!type.securedInTree) return record;
  const properties = Object.fromEntries(
    Object.entries(record.properties).filter(([name]) => {
      const property = type.properties.get(name);
      return !property || scope.canRead(type, property);
    }),
  );
  const children = Object.fromEntries(
    type.childGroups.map((group) => [
      group.name,
      (record.children[group.name] ?? []).map((c) => visibleTo(scope, group.child, c)),
    ]),
  );
  return { ...record, properties, children };
}

/** 403 naming the first secured property the input sets that the caller may not update. */
function assertUpdatable(
  scope: AccessScope,
  type: EntityType,
  record: EntityRecord,
  path: string,
): void {
  for (const name of Object.keys(record.properties)) {
    const property = type.properties.get(name);
    if (property && !scope.canUpdate(type, property)) {
      throw new ForbiddenException(`${path}.${name}: you may not update this secured property`);
    }
  }
  for (const group of type.childGroups) {
    for (const [index, child] of (record.children[group.name] ?? []).entries()) {
      assertUpdatable(scope, group.child, child, `${group.name}[${index}]`);
    }
  }
}

/** The keys of a record and of its children at every level, by type. */
function keysByType(type: EntityType, record: EntityRecord): Map<EntityType, number[]> {
  const keys = new Map<EntityType, number[]>([[type, [record.properties.key as number]]]);
  for (const group of type.childGroups) {
    for (const child of record.children[group.name] ?? []) {
      for (const [childType, childKeys] of keysByType(group.child, child)) {
        keys.set(childType, [...(keys.get(childType) ?? []), ...childKeys]);
      }
    }
  }
  return keys;
}

function notFound(type: EntityType, key: number): NotFoundException {
  return new NotFoundException(`${type.name} ${key} not found`);
}
