import { QueryRunnerAlreadyReleasedError } from 'typeorm';
import { Sql } from '../src/database/sql.service';
import { managerOf } from '../src/database/transaction';
import { Transactions } from '../src/database/transactions.service';
import { createTestApp, TestApp } from './helpers/test-app';

/** Transactions.afterCommit: work that waits for its transaction's commit, and only that. */
describe('Transactions.afterCommit', () => {
  let t: TestApp;
  let transactions: Transactions;

  beforeAll(async () => {
    t = await createTestApp();
    transactions = t.app.get(Transactions);
  });
  afterAll(() => t.close());

  it('runs once the transaction commits, not before', async () => {
    let ran = 0;
    await transactions.run(async (tx) => {
      transactions.afterCommit(tx, () => ran++);
      await managerOf(tx).query('SELECT 1');
      expect(ran).toBe(0);
    });
    expect(ran).toBe(1);
  });

  it('never runs when the transaction rolls back', async () => {
    let ran = 0;
    await expect(
      transactions.run(async (tx) => {
        transactions.afterCommit(tx, () => ran++);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(ran).toBe(0);
    // The connection's next transaction does not run it either.
    await transactions.run(async (tx) => managerOf(tx).query('SELECT 1'));
    expect(ran).toBe(0);
  });

  it('waits past a savepoint released inside the transaction (TypeORM calls that a commit)', async () => {
    let ran = 0;
    await transactions.run(async (tx) => {
      transactions.afterCommit(tx, () => ran++);
      await managerOf(tx).transaction((nested) => nested.query('SELECT 1'));
      expect(ran).toBe(0);
    });
    expect(ran).toBe(1);
  });

  it('runs each concurrent transaction’s work for that transaction alone', async () => {
    const ran = new Set<number>();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        transactions.run(async (tx) => {
          transactions.afterCommit(tx, () => ran.add(i));
          await managerOf(tx).query('SELECT pg_sleep(0.01)');
          if (i % 2 === 1) throw new Error(`transaction ${i} rolls back`);
        }),
      ),
    );
    const committed = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
    expect(committed).toHaveLength(10);
    expect([...ran].sort((a, b) => a - b)).toEqual(committed);
  });
});

/**
 * A statement sent with a transaction that has ended (a handle kept past its work, a
 * late branch of a Promise.all) is refused, not sent on the connection, which is back in
 * the pool and may be inside another request's transaction by then.
 */
describe('a transaction that has ended', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ DATABASE_POOL_SIZE: '1', DATABASE_POOL_RESERVED: '0' });
  });
  afterAll(() => t.close());

  it("refuses a statement instead of running it on the pool's connection", async () => {
    const transactions = t.app.get(Transactions);
    const sql = t.app.get(Sql);
    const ended = await transactions.run(async (tx) => tx);
    // The one pooled connection is now another transaction's, which must not see it.
    await transactions.run(async (other) => {
      await sql.run('SELECT 1', [], other);
      await expect(sql.rows('SELECT 1', [], ended)).rejects.toBeInstanceOf(
        QueryRunnerAlreadyReleasedError,
      );
    });
  });
});
