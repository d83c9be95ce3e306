import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { lockDataDir } from '../src/database/data-dir.lock';
import { EmbeddedPostgres, stopLeftoverServer } from '../src/database/embedded-postgres';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { SUITE_TEMPLATE, withDatabase } from './helpers/suite-database';

declare global {
  var embeddedPostgres: EmbeddedPostgres | undefined;
}

const TEST_DATA_PREFIX = 'atrium-test-';
/** Apps of up to four workers, several per suite, and the concurrency suite's pool. */
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
  await removeInterruptedRuns();
  const dataDir = await mkdtemp(join(tmpdir(), TEST_DATA_PREFIX));
  // Run by root, the database server runs as `postgres`, which must reach DATA_DIR/pgdata.
  await chmod(dataDir, 0o755);
  process.env.ATRIUM_TEST_DATA_DIR = dataDir;
  const server = await EmbeddedPostgres.start(dataDir, {
    maxConnections: TEST_MAX_CONNECTIONS,
    durable: false,
  });
  globalThis.embeddedPostgres = server;
  try {
    process.env.ATRIUM_TEST_SERVER_URL = server.url;
    const admin = new Client({ connectionString: server.url });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${SUITE_TEMPLATE}`);
    } finally {
      await admin.end();
    }
    await prepare(withDatabase(server.url, SUITE_TEMPLATE));
  } catch (error) {
    // Jest runs no teardown after a failed setup.
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The servers and files of earlier runs that were interrupted (Jest runs no teardown on
 * Ctrl-C): a run still going holds its DATA_DIR's lock, an interrupted one does not.
 */
async function removeInterruptedRuns(): Promise<void> {
  const runs = (await readdir(tmpdir())).filter((name) => name.startsWith(TEST_DATA_PREFIX));
  for (const name of runs) {
    const dataDir = join(tmpdir(), name);
    const abandoned = await lockDataDir(dataDir).then(
      () => true,
      () => false,
    );
    if (!abandoned) continue;
    await stopLeftoverServer(dataDir);
    await rm(dataDir, { recursive: true, force: true });
  }
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
