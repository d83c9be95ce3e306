import { DatabaseError, Pool, PoolClient, QueryConfig } from 'pg';
import { DataSource, QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { managerOf, Transaction } from './transaction';

/** What a statement answered: its rows (a SELECT's, a RETURNING's) and the rows it counted. */
export interface StatementResult<T> {
  rows: T[];
  count: number;
}

/**
 * Which texts are prepared: `fixed`, texts that repeat as they are (the repositories'
 * constants, the engine's reads); `growing`, texts that grow with their rows (the
 * engine's multi-row writes: one text per count of rows and columns). Each kind names
 * at most so many distinct texts, past which its statements go unnamed (parsed each
 * time), so that writes of unusual sizes cannot take the names the reads need.
 */
export type Prepared = 'fixed' | 'growing';
const MAX_NAMED: Record<Prepared, number> = { fixed: 200, growing: 100 };
const named: Record<Prepared, number> = { fixed: 0, growing: 0 };
const names = new Map<string, string>();

/**
 * Sends one statement on the connection of `tx`, or outside any transaction on a pooled
 * one: to pg, without TypeORM's machinery per statement (a query runner taken and
 * released, subscribers' broadcasts, a result wrapped and unwrapped), which the entity
 * reads paid twice per request. The data source's logger still sees each statement (the
 * tests count them there), and a failure is the QueryFailedError TypeORM would throw.
 *
 * `prepared`: the text becomes a named statement, which each connection parses and plans
 * once and then only binds (half of PostgreSQL's time per entity read, a sixth of a
 * create's). For texts that repeat: the repositories' constants and what the entity
 * engine builds from the registry's types and an access scope's shape; never a
 * client's FETCH query.
 */
export async function sendStatement<T>(
  dataSource: DataSource,
  tx: Transaction | undefined,
  text: string,
  values: unknown[],
  prepared: Prepared | undefined,
): Promise<StatementResult<T>> {
  dataSource.logger.logQuery(text, values);
  const query: QueryConfig = { text, values, name: prepared && nameOf(text, prepared) };
  try {
    const result = tx
      ? await (await connectionOf(tx)).query(query)
      : await onPooledConnection(dataSource, query);
    return { rows: result.rows as T[], count: result.rowCount ?? 0 };
  } catch (error) {
    if (error instanceof QueryRunnerAlreadyReleasedError) throw error;
    dataSource.logger.logQueryError(error as Error, text, values);
    throw new QueryFailedError(text, values, error as Error);
  }
}

/**
 * A pooled connection for one statement. Given back as TypeORM gave it back, kept after
 * PostgreSQL refused a statement (a FETCH cancelled at its timeout, a division by zero),
 * which `pool.query` would close, and with it the statements prepared on it; closed only
 * when the connection itself failed.
 */
async function onPooledConnection(dataSource: DataSource, query: QueryConfig) {
  const client = await poolOf(dataSource).connect();
  // A connection lost under a statement also emits 'error', which unheard would end the
  // process: the statement's own rejection says it, and the connection is closed below.
  client.on('error', ignoreError);
  try {
    const result = await client.query(query);
    client.release();
    return result;
  } catch (error) {
    client.release(error instanceof DatabaseError ? undefined : (error as Error));
    throw error;
  } finally {
    client.off('error', ignoreError);
  }
}

function ignoreError(): void {}

function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/**
 * The pg client of a transaction's query runner (connected since its BEGIN: at once). A
 * transaction that has ended has none: its runner's client is back in the pool, another
 * request's, as TypeORM's own query would refuse.
 */
function connectionOf(tx: Transaction): Promise<PoolClient> {
  const runner = managerOf(tx).queryRunner as PostgresQueryRunner;
  if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
  return runner.connect() as Promise<PoolClient>;
}

function nameOf(text: string, kind: Prepared): string | undefined {
  let name = names.get(text);
  if (name === undefined && named[kind] < MAX_NAMED[kind]) {
    named[kind]++;
    name = `atrium_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}
