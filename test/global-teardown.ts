import { rm } from 'node:fs/promises';

export default async function globalTeardown(): Promise<void> {
  await globalThis.embeddedPostgres?.stop();
  const dataDir = process.env.ATRIUM_TEST_DATA_DIR;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
