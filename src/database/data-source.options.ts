import './pg-types';
import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { AtriumNamingStrategy } from './naming.strategy';

export interface DatabaseSettings {
  url: string;
  poolSize: number;
  /**
   * Every statement on these connections is cancelled after this long (0 or absent:
   * never). The server sets it; the CLI and the migration tool run without one.
   */
  statementTimeoutMs?: number;
}

/** One place builds the TypeORM options, for the app, the CLI and the TypeORM tool. */
export function buildDataSourceOptions({
  url,
  poolSize,
  statementTimeoutMs,
}: DatabaseSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    namingStrategy: new AtriumNamingStrategy(),
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    // Generated uuids are gen_random_uuid(), built into PostgreSQL 13+: no extension.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    poolSize,
    extra: {
      connectionTimeoutMillis: 10_000,
      // A connection parameter: no statement of its own per query (FETCH is one statement).
      ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
    },
  };
}
