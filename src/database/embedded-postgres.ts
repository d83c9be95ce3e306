import { mkdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { lockDataDir, unlockDataDir } from './data-dir.lock';
import {
  clusterExists,
  isServerCluster,
  PostgresCluster,
  ServerSettings,
} from './postgres-cluster';

/** Unix socket paths are limited to ~107 bytes by the kernel. */
const MAX_SOCKET_PATH = 100;
/** pg_ctl puts the data directory into a shell command line, in double quotes. */
const SHELL_SPECIAL = /["$`\\]/;
const EMBEDDED_PORT = 5432;
export const EMBEDDED_SOCKET_NAME = `.s.PGSQL.${EMBEDDED_PORT}`;

export interface EmbeddedPostgresOptions {
  /** The server's max_connections: the app's pool, and spare ones for the admin CLI. */
  maxConnections: number;
  /** False for throwaway databases (the tests): no fsync. Default true. */
  durable?: boolean;
  /** Told what start did beyond the ordinary (a first start, an orphan stopped). */
  onNotice?: (message: string) => void;
  /** Server settings besides the embedded ones (the benchmark's pg_stat_statements). */
  settings?: ServerSettings;
}

/**
 * A PostgreSQL server process that Atrium runs itself, with its data in DATA_DIR/pgdata,
 * listening on a unix socket in that directory only (no TCP port to collide with). The
 * app reaches it through the same `pg` pool as any server; the admin CLI reaches it
 * through the socket while the server runs.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly cluster: PostgresCluster,
    private readonly root: string,
    readonly url: string,
  ) {}

  static async start(dataDir: string, options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    const root = resolve(dataDir);
    const clusterDir = embeddedClusterDir(root);
    if (join(clusterDir, EMBEDDED_SOCKET_NAME).length > MAX_SOCKET_PATH) {
      throw new Error(`DATA_DIR ${root} is too long for a unix socket; use a shorter path`);
    }
    if (SHELL_SPECIAL.test(root)) {
      throw new Error(`DATA_DIR ${root} must not contain " $ \` or \\`);
    }
    await mkdir(root, { recursive: true });
    await lockDataDir(root);
    try {
      if (await holdsPgliteDatabase(root)) {
        throw new Error(
          `${clusterDir} holds a PGlite database, the embedded database of earlier versions ` +
            `of Atrium. Convert it with "npm run cli -- db:convert-pglite" (docs/operations.md, ` +
            `"From PGlite"), or set DATA_DIR to another directory to start afresh.`,
        );
      }
      // Ours (the lock is), left by an Atrium that was killed: stopped cleanly, so that it
      // starts again with this process's settings. Committed work is on disk.
      const orphan = await stopLeftoverServer(root);
      if (orphan) {
        options.onNotice?.(
          `Stopped the embedded PostgreSQL (pid ${orphan}) left running by an earlier Atrium`,
        );
      }
      const cluster = await PostgresCluster.open(clusterDir);
      const durable = options.durable ?? true;
      if (!(await clusterExists(clusterDir))) {
        await cluster.initialise({ durable });
        options.onNotice?.(`Created the embedded PostgreSQL database in ${clusterDir}`);
      } else if (!orphan) {
        // After a reboot or a container restart its pid may belong to another process,
        // which PostgreSQL would take for a server still running.
        await cluster.forgetStalePidFile();
      }
      await cluster.start({
        ...serverSettings(options.maxConnections, durable),
        ...options.settings,
      });
      return new EmbeddedPostgres(cluster, root, socketUrl(clusterDir));
    } catch (error) {
      await unlockDataDir(root);
      throw error;
    }
  }

  async stop(): Promise<void> {
    try {
      await this.cluster.stop();
    } finally {
      await unlockDataDir(this.root);
    }
  }
}

/** Where the embedded server of DATA_DIR keeps its data files, and its socket. */
export function embeddedClusterDir(dataDir: string): string {
  return join(resolve(dataDir), 'pgdata');
}

/** Whether DATA_DIR holds the data files of PGlite, the embedded database before. */
export async function holdsPgliteDatabase(dataDir: string): Promise<boolean> {
  const clusterDir = embeddedClusterDir(dataDir);
  return (await clusterExists(clusterDir)) && !(await isServerCluster(clusterDir));
}

/**
 * Stops the server that a killed process left running on DATA_DIR, if one answers on
 * its socket (the caller holds the DATA_DIR's lock, so it is no live process's); its pid.
 */
export async function stopLeftoverServer(dataDir: string): Promise<number | undefined> {
  const clusterDir = embeddedClusterDir(dataDir);
  if (!(await socketAnswers(join(clusterDir, EMBEDDED_SOCKET_NAME)))) return undefined;
  const cluster = await PostgresCluster.open(clusterDir);
  const pid = await cluster.serverPid();
  await cluster.stop();
  return pid;
}

/** The URL of the embedded database that a running server serves, if one does. */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const clusterDir = embeddedClusterDir(dataDir);
  const answers = await socketAnswers(join(clusterDir, EMBEDDED_SOCKET_NAME));
  return answers ? socketUrl(clusterDir) : undefined;
}

function serverSettings(maxConnections: number, durable: boolean): ServerSettings {
  return {
    listen_addresses: '',
    // The socket's name, whatever PGPORT says.
    port: EMBEDDED_PORT,
    // Relative to the data directory: the cluster can move with DATA_DIR.
    unix_socket_directories: '.',
    max_connections: maxConnections,
    // Every connection is the superuser's: none to keep in reserve.
    superuser_reserved_connections: 0,
    ...(durable ? {} : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
  };
}

function socketUrl(clusterDir: string): string {
  // The port names the socket; given, so that a PGPORT in the environment does not.
  return `postgres://postgres@localhost:${EMBEDDED_PORT}/postgres?host=${encodeURIComponent(clusterDir)}`;
}

/** A server listens on the socket (one starting up or recovering answers too). */
function socketAnswers(path: string): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}
