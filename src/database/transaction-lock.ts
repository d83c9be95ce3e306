import { EntityManager } from 'typeorm';

/**
 * Waits for, then holds until the transaction of `manager` ends, the lock named `name`:
 * transactions taking the same name run that part one after the other. For what a
 * unique index can only refuse, not order (the next number of a series).
 */
export async function lockUntilTransactionEnds(
  manager: EntityManager,
  name: string,
): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
}
