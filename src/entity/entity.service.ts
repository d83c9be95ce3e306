import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  PreconditionFailedException,
} from '@nestjs/common';
import { Action } from '../access/access.depth';
import { AccessScope } from '../access/access.scope';
import { AccessService } from '../access/access.service';
import { actorOf, ChangeEntry, ChangeLog } from '../changes/change-log.service';
import { entriesWorthWriting, withSecurityEvents } from '../changes/record-changes';
import { Identity } from '../common/identity';
import { translateWriteError } from '../http/database-refusals';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { etagMatches } from '../http/etag';
import { EntityRecord } from '../model/entity-record';
import { EntityType, SYSTEM_COLUMNS } from '../model/entity-type';
import { EntityRegistry } from '../model/entity.registry';
import { Owner, ownerOfRow } from '../model/owner';
import { BusinessRuleError, HookEvent, HookFailedException } from './entity.errors';
import { parseEnvelope, textOf } from './entity.input';
import {
  assertUpdatable,
  etagOf,
  keysByType,
  mergeInto,
  notFound,
  unknownType,
  visibleTo,
} from './entity.records';
import { EntityStore } from './entity.store';
import { readTree } from './entity-tree';
import { EntityWriter, WriteContext } from './entity.writer';
import { HookRunner } from './hook-runner';
import { JoinedTransaction } from './joined-transaction';
import { Lookups } from './lookups';

export const WRITE_OPERATIONS = ['insert', 'update', 'delete', 'assign'] as const;

export interface WriteResult {
  operation: (typeof WRITE_OPERATIONS)[number];
  key: number;
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
 * left out. Hooks and workflows call it inside their transaction (`joined`), so their
 * writes and these are one.
 */
@Injectable()
export class EntityService {
  constructor(
    private readonly transactions: Transactions,
    private readonly registry: EntityRegistry,
    private readonly store: EntityStore,
    private readonly writer: EntityWriter,
    private readonly hooks: HookRunner,
    private readonly access: AccessService,
    private readonly changeLog: ChangeLog,
  ) {}

  async read(
    identity: Identity,
    name: string,
    key: number,
    joined?: JoinedTransaction,
  ): Promise<ReadResult> {
    const type = this.typeOf(name);
    const scope = await this.access.scopeOf(identity);
    const stored = await readTree(this.store, joined?.transaction, type, key, scope, false);
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
    const type = this.topLevelType(name);
    const scope = await this.access.scopeOf(identity);
    this.assertWritable(scope, type);
    // A request's own create; a hook's or workflow's joins its transaction.
    if (type.createdBy && !joined) {
      throw new BadRequestException(
        `${type.name} records are made with ${type.createdBy}, not through the entity API`,
      );
    }
    const input = parseEnvelope(type, body, 'create');
    if (!scope.may(type, 'create')) {
      throw new ForbiddenException(`You may not create ${type.name} records`);
    }
    assertUpdatable(scope, type, input, type.name);
    const lookups = new Lookups(this.registry, type, input);
    return this.transaction(joined, async (tx, forHooks) => {
      await this.lookupsFirst(lookups, tx, scope, () =>
        this.runHooks('onBeforeInsert', type, input, undefined, forHooks, scope),
      );
      const context = this.contextOf(tx, scope, type, scope.identity);
      const record = [{ record: input, link: {} }];
      const [key] = await this.writer.insert(context, type, record, lookups.guard(scope));
      if (key === undefined) {
        await lookups.check(this.store, tx, scope);
        throw new ConflictException(
          `A record this ${type.name} points at changed while it was written: send it again`,
        );
      }
      this.logChanges(context);
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
    const type = this.topLevelType(name);
    const scope = await this.access.scopeOf(identity);
    this.assertWritable(scope, type);
    const input = parseEnvelope(type, body, 'update');
    if (input.properties.key !== undefined && input.properties.key !== key) {
      throw new BadRequestException(
        `${type.name}.key: ${textOf(input.properties.key)} does not match the key ${key} in the path`,
      );
    }
    return this.transaction(joined, async (tx, forHooks) => {
      const stored = await this.lockFor('write', tx, type, key, ifMatch, scope);
      assertUpdatable(scope, type, input, type.name);
      const merged = mergeInto(stored, input, type.name);
      await new Lookups(this.registry, type, input).check(this.store, tx, scope);
      await this.runHooks('onBeforeUpdate', type, merged, stored, forHooks, scope, input);
      const context = this.contextOf(tx, scope, type, ownerOfRow(stored.properties));
      await this.writer.update(context, type, { merged, input, stored });
      this.logChanges(context);
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
    const type = this.topLevelType(name);
    const scope = await this.access.scopeOf(identity);
    this.assertWritable(scope, type);
    return this.transaction(joined, async (tx, forHooks) => {
      const stored = await this.lockFor('delete', tx, type, key, ifMatch, scope);
      await this.runHooks('onBeforeDelete', type, stored, stored, forHooks, scope);
      const context = this.contextOf(tx, scope, type, ownerOfRow(stored.properties));
      await this.writer.delete(context, type, [stored], 'delete');
      this.logChanges(context);
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
    const type = this.topLevelType(name);
    const scope = await this.access.scopeOf(identity);
    if (!type.assignable)
      throw new ForbiddenException(`${type.name} records have no owner to change`);
    // Roles decide who may move a record its own routes write (files).
    if (type.write !== 'own-routes') this.assertWritable(scope, type);
    return this.transaction(joined, async (tx) => {
      const stored = await this.lockFor('write', tx, type, key, undefined, scope);
      const user = await this.store.findOne(tx, this.registry.find('user')!, userKey, scope);
      if (!user) throw new BadRequestException(`userKey: no user with key ${userKey}`);
      const owner = { ...ownerOfRow(user), userKey };
      if (!scope.allows(type, 'write', owner)) {
        throw new ForbiddenException(
          `You may not give ${type.name} ${key} to user ${userKey}: you could not write it there`,
        );
      }
      for (const [rowsType, keys] of keysByType(type, stored)) {
        await this.store.assign(tx, rowsType, keys, owner, scope);
      }
      const context = this.contextOf(tx, scope, type, owner);
      context.entries?.push(assigned(type, stored.properties, owner));
      this.logChanges(context);
      return { operation: 'assign', key };
    });
  }

  /** Where a write of `type` happens; it gathers change-log entries when the type is logged. */
  private contextOf(
    tx: Transaction,
    scope: AccessScope,
    type: EntityType,
    owner: Owner,
  ): WriteContext {
    return { tx, scope, owner, entries: this.changeLog.logs(type) ? [] : undefined };
  }

  /** Hands the write's entries to the change log, written just before the commit. */
  private logChanges({ tx, scope, entries }: WriteContext): void {
    if (!entries) return;
    const worth = entriesWorthWriting(entries);
    const events = withSecurityEvents(worth, (name) => this.registry.find(name));
    this.changeLog.record(tx, actorOf(scope.identity), events);
  }

  /** The stored record, locked: 404 when the caller may not read it, 403 when not `action` it. */
  private async lockFor(
    action: Extract<Action, 'write' | 'delete'>,
    tx: Transaction,
    type: EntityType,
    key: number,
    ifMatch: string | undefined,
    scope: AccessScope,
  ): Promise<EntityRecord> {
    const stored = await readTree(this.store, tx, type, key, scope, true);
    if (!stored) throw notFound(type, key);
    if (!scope.allows(type, action, ownerOfRow(stored.properties))) {
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
    scope: AccessScope,
    carried?: EntityRecord,
  ): Promise<void> {
    try {
      await this.hooks.run(event, type, entity, stored, { scope, joined }, carried);
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
    tx: Transaction,
    scope: AccessScope,
    work: () => Promise<void>,
  ): Promise<void> {
    try {
      await work();
    } catch (error) {
      const missing = await lookups.check(this.store, tx, scope).then(
        () => undefined,
        (checkError: unknown) =>
          checkError instanceof BadRequestException ? checkError : undefined,
      );
      throw missing ?? error;
    }
  }

  /**
   * Joins the caller's transaction (a hook's or a workflow's) or opens one; `work` gets it,
   * and the transaction as the hooks it runs are to join it.
   */
  private async transaction<T>(
    joined: JoinedTransaction | undefined,
    work: (tx: Transaction, forHooks: JoinedTransaction) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.transactions.run(
        (tx) => work(tx, { ...joined, transaction: tx }),
        joined?.transaction,
      );
    } catch (error) {
      throw translateWriteError(error, SYSTEM_COLUMNS);
    }
  }

  /** A type to read: a child type reads under its parent's privileges. */
  private typeOf(name: string): EntityType {
    const type = this.registry.find(name);
    if (!type) throw unknownType(name, this.registry.all());
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

  /** 403 unless the caller may write the type's records through the API at all. */
  private assertWritable(scope: AccessScope, type: EntityType): void {
    const refusal = scope.writeRefusal(type);
    if (refusal) throw new ForbiddenException(refusal);
  }
}

/** The entry of a record given to another owner: who had it, who has it. */
function assigned(type: EntityType, before: Record<string, unknown>, owner: Owner): ChangeEntry {
  const was = ownerOfRow(before);
  const changes: ChangeEntry['changes'] = {};
  if (was.userKey !== owner.userKey) changes.id_user = { old: was.userKey, new: owner.userKey };
  if (was.businessUnitKey !== owner.businessUnitKey) {
    changes.id_business_unit = { old: was.businessUnitKey, new: owner.businessUnitKey };
  }
  return {
    operation: 'assigned',
    entity: type.name,
    recordKey: before.key as number,
    owner,
    changes,
  };
}
