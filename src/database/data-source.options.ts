import './pg-types';
import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { AtriumNamingStrategy } from './naming.strategy';

export interface DatabaseSettings {
  url: string;
  poolSize: number;
}

/** One place builds the TypeORM options, for the app, the CLI and the TypeORM tool. */
export function buildDataSourceOptions({ url, poolSize }: DatabaseSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    namingStrategy: new AtriumNamingStrategy(),
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    poolSize,
    extra: { connectionTimeoutMillis: 10_000 },
  };
}
