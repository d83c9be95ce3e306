import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
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
    await prepare(serverUrl);
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
  await prepare(withDatabase(adminUrl, SUITE_TEMPLATE));
}

/**
 * The app's first boot, once for the run: migrations, then organization Demo, its admin
 * and the demo data set. Suites booting the app in parallel find them made.
 */
async function prepare(databaseUrl: string): Promise<void> {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ databaseUrl }), {
    logger: false,
  });
  await app.close();
}
