import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  NotFoundException,
  PreconditionFailedException,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Identity } from '../common/identity';
import { etagMatches } from '../common/etag';
import { RequestContext } from '../common/request-context';
import { translateDatabaseError } from './database-errors';
import { EntityRegistry } from './entity.registry';
import { EntityType } from './entity-type';
import { BusinessRuleError, HookEvent, HookFailedException } from './entity.errors';
import { parseEnvelope } from './entity.input';
import { EntityRecord } from './entity-record';
import { EntityStore, Scope } from './entity.store';
import { readTree } from './entity-tree';
import { EntityWriter } from './entity.writer';
import { HookRunner } from './hook-runner';
import { checkLookups } from './lookups';

export interface WriteResult {
  operation: 'insert' | 'update' | 'delete';
  key: number;
}

export interface ReadResult {
  entity: EntityRecord;
  etag: string;
}

/**
 * The entity API's semantics (spec 4.2, DESIGN.md): reads with every child group, writes
 * of a parent and its children in one transaction with the hooks inside it, tenancy by
 * the caller's organization on every statement. Workflows call it with their own
 * transaction's manager, so their writes and these are one.
 */
@Injectable()
export class EntityService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly registry: EntityRegistry,
    private readonly store: EntityStore,
    private readonly writer: EntityWriter,
    private readonly hooks: HookRunner,
    private readonly context: RequestContext,
  ) {}

  async read(name: string, key: number, manager = this.dataSource.manager): Promise<ReadResult> {
    const type = this.typeOf(name);
    const entity = await readTree(this.store, manager, type, key, this.scope(), false);
    if (!entity) throw notFound(type, key);
    return { entity, etag: etagOf(entity) };
  }

  create(name: string, body: unknown, manager?: EntityManager): Promise<WriteResult> {
    const type = this.writableType(name);
    const input = parseEnvelope(type, body, 'create');
    return this.transaction(manager, async (tx, identity) => {
      await checkLookups(this.store, this.registry, tx, type, input, this.scope());
      await this.runHooks('onBeforeInsert', type, input, undefined, tx, identity);
      const context = { manager: tx, identity, scope: this.scope() };
      const [key] = await this.writer.insert(context, type, [{ record: input, link: {} }]);
      return { operation: 'insert', key };
    });
  }

  update(
    name: string,
    key: number,
    body: unknown,
    ifMatch?: string,
    manager?: EntityManager,
  ): Promise<WriteResult> {
    const type = this.writableType(name);
    const input = parseEnvelope(type, body, 'update');
    if (input.properties.key !== undefined && input.properties.key !== key) {
      throw new BadRequestException(
        `${type.name}.key: ${String(input.properties.key)} does not match the key ${key} in the path`,
      );
    }
    return this.transaction(manager, async (tx, identity) => {
      const stored = await this.lockForWrite(tx, type, key, ifMatch);
      const merged = mergeInto(stored, input, type.name);
      await checkLookups(this.store, this.registry, tx, type, input, this.scope());
      await this.runHooks('onBeforeUpdate', type, merged, stored, tx, identity, input);
      const context = { manager: tx, identity, scope: this.scope() };
      await this.writer.update(context, type, { merged, input, stored });
      return { operation: 'update', key };
    });
  }

  delete(
    name: string,
    key: number,
    ifMatch?: string,
    manager?: EntityManager,
  ): Promise<WriteResult> {
    const type = this.writableType(name);
    return this.transaction(manager, async (tx, identity) => {
      const stored = await this.lockForWrite(tx, type, key, ifMatch);
      await this.runHooks('onBeforeDelete', type, stored, stored, tx, identity);
      await this.store.delete(tx, type, [key], this.scope());
      return { operation: 'delete', key };
    });
  }

  private async lockForWrite(
    manager: EntityManager,
    type: EntityType,
    key: number,
    ifMatch: string | undefined,
  ): Promise<EntityRecord> {
    const stored = await readTree(this.store, manager, type, key, this.scope(), true);
    if (!stored) throw notFound(type, key);
    if (ifMatch !== undefined && !etagMatches(ifMatch, etagOf(stored))) {
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
    manager: EntityManager,
    identity: Identity,
    carried?: EntityRecord,
  ): Promise<void> {
    try {
      const run = { identity, workflow: this.context.workflow, manager };
      await this.hooks.run(event, type, entity, stored, run, carried);
    } catch (error) {
      if (error instanceof BusinessRuleError)
        throw new HookFailedException(event, type.name, error);
      throw error;
    }
  }

  /** Joins the caller's transaction (a workflow's) or opens one. */
  private async transaction<T>(
    manager: EntityManager | undefined,
    work: (manager: EntityManager, identity: Identity) => Promise<T>,
  ): Promise<T> {
    const identity = this.context.requireIdentity();
    try {
      if (manager?.queryRunner?.isTransactionActive) return await work(manager, identity);
      return await this.dataSource.transaction((tx) => work(tx, identity));
    } catch (error) {
      throw translateDatabaseError(error);
    }
  }

  private typeOf(name: string): EntityType {
    const type = this.registry.find(name);
    if (!type || type.parent) throw new NotFoundException(`Unknown entity type "${name}"`);
    return type;
  }

  private writableType(name: string): EntityType {
    const type = this.typeOf(name);
    const identity = this.context.requireIdentity();
    if (type.write === 'nobody')
      throw new ForbiddenException(`${name} is read-only through this API`);
    if (type.write === 'admin' && !identity.isAdmin) {
      throw new ForbiddenException(`Only administrators may change ${name}`);
    }
    return type;
  }

  private scope(): Scope {
    return { organizationKey: this.context.requireIdentity().organizationKey };
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
          `${group}[${index}].key: ${String(child.properties.key)} is not a child of this ${path}`,
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

function notFound(type: EntityType, key: number): NotFoundException {
  return new NotFoundException(`${type.name} ${key} not found`);
}
