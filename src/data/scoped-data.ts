import { EntityManager } from 'typeorm';
import { lockUntilTransactionEnds } from '../database/transaction-lock';
import type { Identity } from '../common/identity';
import type {
  EntityService,
  JoinedTransaction,
  ReadResult,
  WriteResult,
} from '../entity/entity.service';
import type { EntityRecord } from '../entity/entity-record';
import type { FetchResult, FetchService } from '../fetch/fetch.service';
import type { EntityQuery } from '../fetch/fetch.tree';

/**
 * What hooks and workflows read and write with: the entity engine and FETCH inside the
 * running transaction, as the caller. The caller's organization, privileges and secured
 * properties apply to every call, so application code cannot forget tenancy.
 */
export class ScopedData {
  constructor(
    private readonly entities: EntityService,
    private readonly fetchService: FetchService,
    private readonly identity: Identity,
    private readonly joined: JoinedTransaction,
  ) {}

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
      manager: this.joined.manager,
    });
  }

  /** Orders this part of concurrent transactions by `name` (see transaction-lock.ts). */
  lockUntilTransactionEnds(name: string): Promise<void> {
    return lockUntilTransactionEnds(this.joined.manager, name);
  }

  /**
   * The transaction's manager with no access rules: for what must see past the caller's
   * privileges (a number unique in the organization). Every query on it must name the
   * organization itself.
   */
  get unscopedManager(): EntityManager {
    return this.joined.manager;
  }
}
