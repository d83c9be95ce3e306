import { Environment } from '../config/environment';
import { EmbeddedPostgres, runningEmbeddedUrl } from '../database/embedded-postgres';

export interface CliDatabase {
  url: string;
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set. Otherwise the embedded database in DATA_DIR: a running server
 * owns its files, so go through the server's private socket; with no server, start the
 * database here and stop it cleanly when the command is done.
 */
export async function openCliDatabase(env: Environment, connections: number): Promise<CliDatabase> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, close: async () => {} };
  const served = await runningEmbeddedUrl(env.DATA_DIR);
  if (served) return { url: served, close: async () => {} };
  const embedded = await EmbeddedPostgres.start(env.DATA_DIR, { maxConnections: connections });
  return { url: embedded.url, close: () => embedded.stop() };
}
