import type { Pool, PoolClient, QueryConfig } from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { managerOf, Transaction } from './transaction';

/** What a statement answered: its rows (a SELECT's, a RETURNING's) and the rows it counted. */
export interface StatementResult<T> {
  rows: T[];
  count: number;
}

/**
 * Distinct texts given a name at most: past it, statements go unnamed (parsed each time),
 * so that texts built per request cannot fill every connection with plans.
 */
const MAX_PREPARED = 200;
const names = new Map<string, string>();

/**
 * Sends one statement on the connection of `tx`, or outside any transaction on a pooled
 * one: to pg, without TypeORM's machinery per statement (a query runner taken and
 * released, subscribers' broadcasts, a result wrapped and unwrapped), which the entity
 * reads paid twice per request. The data source's logger still sees each statement (the
 * tests count them there), and a failure is the QueryFailedError TypeORM would throw.
 *
 * `prepared`: the text becomes a named statement, which each connection parses and plans
 * once and then only binds (half of PostgreSQL's time per entity read). For SQL whose
 * texts are few: the repositories' constants and what the entity engine builds from the
 * registry's types and an access scope's shape; never a client's FETCH query.
 */
export async function sendStatement<T>(
  dataSource: DataSource,
  tx: Transaction | undefined,
  text: string,
  values: unknown[],
  prepared: boolean,
): Promise<StatementResult<T>> {
  dataSource.logger.logQuery(text, values);
  const query: QueryConfig = { text, values, name: prepared ? nameOf(text) : undefined };
  try {
    const result = await (tx ? await connectionOf(tx) : poolOf(dataSource)).query(query);
    return { rows: result.rows as T[], count: result.rowCount ?? 0 };
  } catch (error) {
    dataSource.logger.logQueryError(error as Error, text, values);
    throw new QueryFailedError(text, values, error as Error);
  }
}

function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/** The pg client of a transaction's query runner (connected since its BEGIN: at once). */
function connectionOf(tx: Transaction): Promise<PoolClient> {
  return (managerOf(tx).queryRunner as PostgresQueryRunner).connect() as Promise<PoolClient>;
}

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_PREPARED) {
    name = `atrium_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}
