import { Injectable } from '@nestjs/common';
import { systemScope } from '../access/access.tenant';
import { ConfigService } from '@nestjs/config';
import { Identity } from '../common/identity';
import type { Environment } from '../config/environment';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { EntityType, governingType } from '../model/entity-type';
import { Owner } from '../model/owner';
import { ChangeLogRepository, NewEntryRow } from './change-log.repository';

/** One writer for every organization's entries: each carries its record's owner. */
const WRITER = systemScope('change-log');

/** What happened to a record; `version_added` is a file's. */
export const RECORD_OPERATIONS = [
  'created',
  'updated',
  'deleted',
  'assigned',
  'version_added',
  'purged',
] as const;

/** What happened to someone's access: sign-ins, passwords, keys, roles, secrets. */
export const SECURITY_OPERATIONS = [
  'signed_in',
  'sign_in_failed',
  'signed_out',
  'password_changed',
  'password_reset',
  'api_key_created',
  'api_key_revoked',
  'privileges_changed',
  'roles_changed',
  'secret_rotated',
] as const;

export type ChangeOperation =
  (typeof RECORD_OPERATIONS)[number] | (typeof SECURITY_OPERATIONS)[number];

export interface ValueChange {
  old?: unknown;
  new?: unknown;
}

/** One row written, or one event, as the engine and the services report it. */
export interface ChangeEntry {
  operation: ChangeOperation;
  entity: string;
  recordKey: number | null;
  /** The row's owner at the time (null: a failed sign-in under an unknown name). */
  owner: Owner | null;
  changes?: Record<string, ValueChange>;
  detail?: Record<string, unknown>;
  /** For a child row: its parent row's entry in the same write. */
  parent?: ChangeEntry;
}

/** Who made a change, and through what. */
export interface Actor {
  userKey: number | null;
  userName: string | null;
  /** `session`, `api-key 12`, `oidc <provider>`, `cli`, `system`. */
  via: string;
  requestId?: string;
}

/** Work no request asked for: first boot, maintenance, a test's setup. */
export const SYSTEM_ACTOR: Actor = { userKey: null, userName: null, via: 'system' };

/** An administrator's command line. */
export const CLI_ACTOR: Actor = { userKey: null, userName: null, via: 'cli' };

export function actorOf(identity: Identity): Actor {
  return {
    userKey: identity.userKey,
    userName: identity.userName,
    via: identity.via ?? identity.authMethod,
    requestId: identity.requestId,
  };
}

interface Pending {
  entry: ChangeEntry;
  actor: Actor;
}

const PENDING = Symbol('the change-log entries of a transaction');

/**
 * The write side of the change log: entries gathered while a transaction runs and
 * written in one statement just before it commits, so a write that rolls back leaves
 * none and one that commits always has its own.
 */
@Injectable()
export class ChangeLog {
  private readonly enabled: boolean;
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly transactions: Transactions,
    private readonly repository: ChangeLogRepository,
    config: ConfigService<Environment, true>,
  ) {
    this.enabled = config.get('AUDIT_LOG', { infer: true }) !== 'false';
  }

  /** Whether writes of records of `type` are logged. */
  logs(type: EntityType): boolean {
    return this.enabled && governingType(type).audit;
  }

  /** Adds entries to what `tx` writes before it commits. */
  record(tx: Transaction, actor: Actor, entries: ChangeEntry[]): void {
    if (!this.enabled || entries.length === 0) return;
    const pending = this.transactions.batch(
      tx,
      PENDING,
      (): Pending[] => {
        this.transactions.afterCommit(tx, () => this.announce());
        return [];
      },
      (batch) => this.repository.insert(WRITER, rowsOf(batch), tx),
    );
    for (const entry of entries) pending.push({ entry, actor });
  }

  /** Calls `listener` after each commit of this process that wrote entries (the events' dispatcher). */
  onCommitted(listener: () => void): void {
    this.listeners.push(listener);
  }

  private announce(): void {
    for (const listener of this.listeners) listener();
  }

  /** An entry of its own, outside any write (a sign-in, failed or not). */
  async recordNow(actor: Actor, entry: ChangeEntry): Promise<void> {
    if (this.enabled) await this.repository.insert(WRITER, rowsOf([{ entry, actor }]));
  }
}

function rowsOf(batch: Pending[]): NewEntryRow[] {
  const places = new Map(batch.map(({ entry }, index) => [entry, index]));
  return batch.map(({ entry, actor }, ord) => {
    let root = entry;
    while (root.parent) root = root.parent;
    const { owner } = entry;
    return {
      ord,
      parentOrd: entry.parent ? (places.get(entry.parent) ?? null) : null,
      operation: entry.operation,
      entity: entry.entity,
      recordKey: entry.recordKey,
      rootEntity: root.entity,
      rootKey: root.recordKey,
      organizationKey: owner?.organizationKey ?? null,
      businessUnitKey: owner?.businessUnitKey ?? null,
      userKey: owner?.userKey ?? null,
      changes: entry.changes ?? {},
      detail: entry.detail ?? null,
      actorKey: actor.userKey,
      actorName: actor.userName,
      via: actor.via,
      requestId: actor.requestId ?? null,
    };
  });
}
