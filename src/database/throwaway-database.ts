import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source.options';
import { EmbeddedPostgres } from './embedded-postgres';
import { EntityClass } from './entity-classes';

/** What the schema builder would do to the migrated database: up, and back down. */
export interface SchemaDifference {
  up: string[];
  down: string[];
}

/**
 * Runs `work` on a new embedded PostgreSQL in a temporary directory, which goes with it
 * afterwards: the developer tools touch no database of the developer's.
 */
export async function onThrowawayDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'atrium-throwaway-'));
  // Run by root, the database server runs as `postgres`, which must reach the directory.
  await chmod(dataDir, 0o755);
  try {
    const embedded = await EmbeddedPostgres.start(dataDir, { maxConnections: 10, durable: false });
    try {
      return await work(embedded.url);
    } finally {
      await embedded.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A new, empty database `name` on the server of `url`; its URL. */
export async function newDatabaseOn(url: string, name: string): Promise<string> {
  const options = {
    ...buildDataSourceOptions({ url, poolSize: 1 }),
    migrationsRun: false,
    entities: [],
  };
  const dataSource = new DataSource(options);
  await dataSource.initialize();
  try {
    await dataSource.query(`CREATE DATABASE ${name}`);
  } finally {
    await dataSource.destroy();
  }
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.toString();
}

/**
 * The difference between `entities` and what the migrations build, on a throwaway
 * database: the statements a migration would need.
 */
export function schemaDifference(entities: EntityClass[]): Promise<SchemaDifference> {
  return onThrowawayDatabase(async (url) => {
    const dataSource = new DataSource({
      ...buildDataSourceOptions({ url, poolSize: 2 }),
      entities,
      migrationsRun: false,
      logging: false,
    });
    try {
      await dataSource.initialize();
      await dataSource.runMigrations({ transaction: 'each' });
      const sql = await dataSource.driver.createSchemaBuilder().log();
      return {
        up: sql.upQueries.map((q) => q.query),
        down: sql.downQueries.map((q) => q.query).reverse(),
      };
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
    }
  });
}
