import type { AccessScope, CallerAccess } from '../access/access.scope';
import type { Tenant } from '../access/access.tenant';
import type { Identity } from '../common/identity';
import type { Transaction } from '../database/transaction';
import type { Transactions } from '../database/transactions.service';
import type { EntityService, ReadResult, WriteResult } from '../entity/entity.service';
import type { JoinedTransaction } from '../entity/joined-transaction';
import type { FetchResult, FetchService } from '../fetch/fetch.service';
import type { EntityQuery } from '../fetch/fetch.tree';
import type { EntityRecord } from '../model/entity-record';
import type { JobOptions, JobQueue } from '../queue/job-queue.service';

/**
 * What hooks and workflows read and write with: the entity engine and FETCH inside the
 * running transaction, as the caller. The caller's organization, privileges and secured
 * properties apply to every call, so application code cannot forget tenancy.
 */
export class ScopedData {
  constructor(
    private readonly entities: EntityService,
    private readonly fetchService: FetchService,
    private readonly transactions: Transactions,
    private readonly jobs: JobQueue,
    private readonly scope: AccessScope,
    private readonly joined: JoinedTransaction,
  ) {}

  /** The caller. */
  get identity(): Identity {
    return this.scope.identity;
  }

  /** What the caller's access allows, for rules that depend on it (an administrator may…). */
  get access(): CallerAccess {
    return this.scope;
  }

  /**
   * The caller's organization, for the repository methods a rule calls itself (with the
   * transaction): they bind it, so a rule reaches no other organization's rows.
   */
  get tenant(): Tenant {
    return this.scope.tenant;
  }

  /**
   * The running transaction, for the system APIs that take one (each says what it reaches
   * past the caller's privileges); it runs nothing by itself.
   */
  get transaction(): Transaction {
    return this.joined.transaction;
  }

  /** The record with its child groups; 404 when the caller may not read it. */
  async read(name: string, key: number): Promise<EntityRecord> {
    const { entity }: ReadResult = await this.entities.read(this.identity, name, key, this.joined);
    return entity;
  }

  create(name: string, body: unknown): Promise<WriteResult> {
    return this.entities.create(this.identity, name, body, this.joined);
  }

  update(name: string, key: number, body: unknown, ifMatch?: string): Promise<WriteResult> {
    return this.entities.update(this.identity, name, key, body, ifMatch, this.joined);
  }

  delete(name: string, key: number, ifMatch?: string): Promise<WriteResult> {
    return this.entities.delete(this.identity, name, key, ifMatch, this.joined);
  }

  /** A FETCH query, as text or as its tree (FETCH.md §4): the rows the caller may read. */
  fetch(query: string | EntityQuery, options: { count?: boolean } = {}): Promise<FetchResult> {
    const input = typeof query === 'string' ? { text: query } : { json: query };
    return this.fetchService.run(this.identity, input, {
      ...options,
      transaction: this.joined.transaction,
    });
  }

  /**
   * Sends a job to the `@Job(name)` handler, as part of this transaction: it runs after the
   * commit, acting as the caller, and never if the transaction rolls back. `data` is JSON.
   * Returns the job's id, or null when `singletonKey` found one already waiting.
   */
  sendJob(name: string, data: object, options: JobOptions = {}): Promise<string | null> {
    const { identity } = this;
    return this.jobs.send(
      name,
      { organization: identity.organizationKey, actor: identity.userKey, payload: data },
      options,
      this.joined.transaction,
    );
  }

  /**
   * Waits for, then holds until the transaction ends, the lock named `name`: concurrent
   * transactions taking the same name run that part one after the other. For what a
   * unique index can only refuse, not order (the next number of a series).
   */
  lockUntilTransactionEnds(name: string): Promise<void> {
    return this.transactions.lock(this.joined.transaction, name);
  }
}
