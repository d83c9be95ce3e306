import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source.options';
import { EmbeddedPostgres } from '../src/database/embedded-postgres';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';

declare global {
  var embeddedPostgres: EmbeddedPostgres | undefined;
}

/**
 * One database for the run: the server in TEST_DATABASE_URL, or a fresh embedded one.
 * Migrations run here once, so suites booting the app in parallel find them applied.
 */
export default async function globalSetup(): Promise<void> {
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const dataDir = await mkdtemp(join(tmpdir(), 'atrium-test-'));
    process.env.ATRIUM_TEST_DATA_DIR = dataDir;
    globalThis.embeddedPostgres = await EmbeddedPostgres.start(dataDir, 40);
    url = globalThis.embeddedPostgres.url;
  }
  process.env.ATRIUM_TEST_DATABASE_URL = url;
  process.env.ADMIN_PASSWORD = TEST_ADMIN_PASSWORD;
  process.env.LOG_LEVEL ??= 'silent';
  process.env.DATABASE_POOL_SIZE ??= '4';

  const dataSource = new DataSource(buildDataSourceOptions({ url, poolSize: 1 }));
  await dataSource.initialize();
  await dataSource.runMigrations();
  await dataSource.destroy();
}
