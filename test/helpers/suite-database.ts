import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The database that global-setup migrates and every suite's database is copied from. */
export const SUITE_TEMPLATE = 'atrium_suite_template';

/** `url` with its database replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * The database this suite's apps use. On the embedded server (global-setup), a new one
 * copied from the migrated template, so suites never see each other's rows; on the
 * server of TEST_DATABASE_URL, the one database the run shares.
 */
export async function createSuiteDatabase(): Promise<string> {
  const serverUrl = process.env.ATRIUM_TEST_SERVER_URL;
  if (!serverUrl) return process.env.TEST_DATABASE_URL!;
  const name = `atrium_suite_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${SUITE_TEMPLATE}`);
  } finally {
    await admin.end();
  }
  return withDatabase(serverUrl, name);
}
