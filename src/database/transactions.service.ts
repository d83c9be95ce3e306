import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  EntitySubscriberInterface,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import { managerOf, Transaction } from './transaction';

/** Where a transaction's after-commit work waits (TypeORM's per-connection `data`). */
const AFTER_COMMIT = 'atrium:after-commit';
/** Where what a transaction gathers to write before it commits waits. */
const BATCHES = 'atrium:batches';

interface Batch {
  value: unknown;
  flush: (value: unknown) => Promise<void>;
}

/** TypeORM's `data` of a connection (a QueryRunner), which it leaves to its users. */
type QueryRunnerData = Record<string, unknown> | undefined;

/**
 * Opens transactions, joins them, and runs work once they commit: what the entity engine,
 * the services and the hooks (through ScopedData) know of transactions.
 */
@Injectable()
export class Transactions implements EntitySubscriberInterface {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    dataSource.subscribers.push(this);
  }

  /**
   * Runs `work` inside `joined` when that is a transaction under way (a hook's, a
   * workflow's: its statements and the caller's are one), else in a new transaction,
   * committed when `work` resolves and rolled back when it throws.
   */
  async run<T>(work: (tx: Transaction) => Promise<T>, joined?: Transaction): Promise<T> {
    if (joined?.active) return await work(joined);
    return this.dataSource.transaction(async (manager) => {
      const result = await work(new Transaction(manager));
      await flushBatches(manager.queryRunner?.data);
      return result;
    });
  }

  /**
   * What `tx` gathers under `slot` while it runs (`create`d at the first call), handed to
   * `flush` once the work is done, inside the transaction, just before it commits: many
   * writes of one transaction become one statement, and a rollback sends none.
   */
  batch<T>(tx: Transaction, slot: symbol, create: () => T, flush: (batch: T) => Promise<void>): T {
    const data: QueryRunnerData = managerOf(tx).queryRunner?.data;
    if (!data) throw new Error('batch: the transaction has no connection of its own');
    const batches = (data[BATCHES] ??= new Map()) as Map<symbol, Batch>;
    let batch = batches.get(slot);
    if (!batch) {
      batch = { value: create(), flush: flush as (value: unknown) => Promise<void> };
      batches.set(slot, batch);
    }
    return batch.value as T;
  }

  /**
   * Waits for, then holds until `tx` ends, the lock named `name`: transactions taking the
   * same name run that part one after the other. For what a unique index can only refuse,
   * not order (the next number of a series).
   */
  async lock(tx: Transaction, name: string): Promise<void> {
    await managerOf(tx).query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
  }

  /** Runs `callback` once `tx` commits (never if it rolls back). */
  afterCommit(tx: Transaction, callback: () => void): void {
    const data: QueryRunnerData = managerOf(tx).queryRunner?.data;
    if (!data) throw new Error('afterCommit: the transaction has no connection of its own');
    const callbacks = (data[AFTER_COMMIT] ??= []) as (() => void)[];
    callbacks.push(callback);
  }

  /**
   * TypeORM's subscriber call: the connection has committed. It says so of a savepoint
   * too (a nested transaction), where the transaction is still under way: not yet.
   */
  afterTransactionCommit({ queryRunner }: TransactionCommitEvent): void {
    if (queryRunner.isTransactionActive) return;
    for (const callback of takeCallbacks(queryRunner.data)) callback();
  }

  afterTransactionRollback({ queryRunner }: TransactionRollbackEvent): void {
    if (!queryRunner.isTransactionActive) takeCallbacks(queryRunner.data);
  }
}

/** Writes the batches a transaction gathered (they may not gather more meanwhile). */
async function flushBatches(data: QueryRunnerData): Promise<void> {
  const batches = data?.[BATCHES] as Map<symbol, Batch> | undefined;
  if (!batches) return;
  delete data![BATCHES];
  for (const { value, flush } of batches.values()) await flush(value);
}

/** The callbacks waiting on a connection, taken off it (none, on most commits). */
function takeCallbacks(data: QueryRunnerData): (() => void)[] {
  const callbacks = data?.[AFTER_COMMIT] as (() => void)[] | undefined;
  if (!callbacks) return NONE;
  delete data![AFTER_COMMIT];
  return callbacks;
}

const NONE: (() => void)[] = [];
