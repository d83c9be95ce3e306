import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source.options';
import { EmbeddedPostgres } from '../src/database/embedded-postgres';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { SUITE_TEMPLATE, withDatabase } from './helpers/suite-database';

declare global {
  var embeddedPostgres: EmbeddedPostgres | undefined;
}

/** Apps of two workers, several per suite, and the concurrency suites' pools. */
const TEST_MAX_CONNECTIONS = 200;

/**
 * The run's PostgreSQL: the server in TEST_DATABASE_URL, whose one database every suite
 * shares; or an embedded server started here once, where each suite gets a database of
 * its own, copied from a template that the migrations were applied to here.
 */
export default async function globalSetup(): Promise<void> {
  process.env.ADMIN_PASSWORD = TEST_ADMIN_PASSWORD;
  process.env.LOG_LEVEL ??= 'silent';
  process.env.DATABASE_POOL_SIZE ??= '4';

  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    await migrate(serverUrl);
    return;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'atrium-test-'));
  // Run by root, the database server runs as `postgres`, which must reach DATA_DIR/pgdata.
  await chmod(dataDir, 0o755);
  process.env.ATRIUM_TEST_DATA_DIR = dataDir;
  globalThis.embeddedPostgres = await EmbeddedPostgres.start(dataDir, {
    maxConnections: TEST_MAX_CONNECTIONS,
    durable: false,
  });
  const adminUrl = globalThis.embeddedPostgres.url;
  process.env.ATRIUM_TEST_SERVER_URL = adminUrl;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${SUITE_TEMPLATE}`);
  } finally {
    await admin.end();
  }
  await migrate(withDatabase(adminUrl, SUITE_TEMPLATE));
}

/** Migrations run here once, so suites booting the app in parallel find them applied. */
async function migrate(url: string): Promise<void> {
  const dataSource = new DataSource(buildDataSourceOptions({ url, poolSize: 1 }));
  await dataSource.initialize();
  await dataSource.runMigrations();
  await dataSource.destroy();
}
