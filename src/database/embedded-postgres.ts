import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** Unix socket paths are limited to ~107 bytes by the kernel. */
const MAX_SOCKET_PATH = 100;
export const EMBEDDED_SOCKET_NAME = '.s.PGSQL.5432';
const LOCK_NAME = 'atrium.lock';

/**
 * PostgreSQL running inside this process (PGlite), served on a private unix socket in
 * DATA_DIR so the app reaches it through the same `pg` driver and pool as a real server,
 * and the admin CLI can reach it while the server runs.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly root: string,
    readonly url: string,
  ) {}

  static async start(dataDir: string, maxConnections: number): Promise<EmbeddedPostgres> {
    const root = resolve(dataDir);
    const socketPath = join(root, EMBEDDED_SOCKET_NAME);
    if (socketPath.length > MAX_SOCKET_PATH) {
      throw new Error(`DATA_DIR ${root} is too long for a unix socket; use a shorter path`);
    }
    await mkdir(root, { recursive: true });
    await takeLock(root);
    try {
      // A killed process leaves its socket file behind; the lock says it is gone.
      await rm(socketPath, { force: true });
      const db = await PGlite.create(join(root, 'pgdata'));
      const server = new PGLiteSocketServer({ db, maxConnections, path: socketPath });
      await server.start();
      return new EmbeddedPostgres(db, server, root, socketUrl(root));
    } catch (error) {
      await rm(join(root, LOCK_NAME), { force: true });
      throw error;
    }
  }

  async stop(): Promise<void> {
    try {
      await this.server.stop();
      await this.db.close();
    } finally {
      await rm(join(this.root, LOCK_NAME), { force: true });
    }
  }
}

/** The URL of an embedded database that a running server serves, if one does. */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const root = resolve(dataDir);
  return (await socketAnswers(join(root, EMBEDDED_SOCKET_NAME))) ? socketUrl(root) : undefined;
}

function socketUrl(root: string): string {
  return `postgres://postgres@localhost/postgres?host=${encodeURIComponent(root)}`;
}

/**
 * One process at a time may open the data files: PGlite has no lock of its own, and two
 * writers would corrupt them. The lock names its owner's pid, so a killed owner's lock is
 * recognised as stale and taken over.
 */
async function takeLock(root: string): Promise<void> {
  const lockPath = join(root, LOCK_NAME);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockPath, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(await readFile(lockPath, 'utf8').catch(() => ''));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(`The embedded database in ${root} is in use by process ${owner}`);
      }
      await rm(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${root}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function socketAnswers(path: string): Promise<boolean> {
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  if (!exists) return false;
  return new Promise((done) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}
