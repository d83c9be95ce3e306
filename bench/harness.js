'use strict';
/**
 * What every benchmark here needs: a fresh database, the built app (and a baseline) as
 * child processes, a session and an API key, and cleaning all of it up, also on failure
 * and Ctrl-C. Used by the benchmarks here and scripts/console-screenshots.js.
 * The database is on the embedded PostgreSQL server that `npm start` runs (started here,
 * from the build, with the same settings, so the app and the baseline share it), or on
 * the server of BENCH_DATABASE_URL (an admin connection URL).
 * BENCH_NODE_ARGS: extra node flags for the servers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"
 * (node refuses profiling flags in NODE_OPTIONS).
 */
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { chmod, mkdtemp, rm } = require('node:fs/promises');
const { tmpdir } = require('node:os');
const { Client } = require('pg');

const ROOT = path.resolve(__dirname, '..');
/** Pools of up to six servers at once (bench/events.js), and spare ones for the admin connection. */
const EMBEDDED_MAX_CONNECTIONS = 100;
const ADMIN_PASSWORD = `bench-${randomBytes(9).toString('base64url')}`;

const children = new Set();
const cleanups = [];
let cleaningUp;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A number setting from the environment (BENCH_DURATION=…), or its default. */
const numberFromEnv = (name, fallback) =>
  process.env[name] ? Number(process.env[name]) : fallback;
const log = (message) => process.stderr.write(`[bench] ${message}\n`);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The benchmark's PostgreSQL: {adminUrl, target, kind}; `target` is where a proxy in
 * front of it connects (a socket path, or a host and port).
 */
let serverPromise;
const STATEMENT_TIMES = process.env.BENCH_STATEMENT_TIMES === '1';

function databaseServer() {
  serverPromise ??= (async () => {
    if (process.env.BENCH_DATABASE_URL) {
      const url = new URL(process.env.BENCH_DATABASE_URL);
      const target = { host: url.hostname, port: Number(url.port || 5432) };
      return { adminUrl: url.toString(), target, kind: 'server' };
    }
    const { EmbeddedPostgres, EMBEDDED_SOCKET_NAME, embeddedClusterDir } = require(
      path.join(ROOT, 'dist/src/database/embedded-postgres'),
    );
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atr-bench-'));
    // Run by root, the database server runs as `postgres`, which must reach DATA_DIR.
    await chmod(dataDir, 0o755);
    const embedded = await EmbeddedPostgres.start(dataDir, {
      maxConnections: EMBEDDED_MAX_CONNECTIONS,
      // BENCH_STATEMENT_TIMES: PostgreSQL's own time per statement, planning included.
      settings: STATEMENT_TIMES
        ? {
            shared_preload_libraries: 'pg_stat_statements',
            'pg_stat_statements.track_planning': 'on',
          }
        : {},
    });
    onCleanup(async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
      log('embedded PostgreSQL stopped');
    });
    const target = { path: path.join(embeddedClusterDir(dataDir), EMBEDDED_SOCKET_NAME) };
    return { adminUrl: embedded.url, target, kind: 'embedded' };
  })();
  return serverPromise;
}

/** The URL of database `name` on the benchmark's server (through `hostPort` if given). */
async function databaseUrl(name, hostPort) {
  const url = new URL((await databaseServer()).adminUrl);
  url.pathname = `/${name}`;
  if (hostPort) {
    url.host = hostPort;
    url.searchParams.delete('host');
  }
  return url.toString();
}

/** A fresh database, dropped by cleanup(); returns its name and the server's version. */
async function createDatabase() {
  const server = await databaseServer();
  const admin = new Client({ connectionString: server.adminUrl });
  await admin.connect();
  const name = `atrium_bench_${Date.now().toString(36)}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  const { rows } = await admin.query('SHOW server_version');
  log(`database ${name} created (${server.kind} PostgreSQL ${rows[0].server_version})`);
  if (STATEMENT_TIMES) {
    if (server.kind !== 'embedded')
      throw new Error('BENCH_STATEMENT_TIMES needs the embedded server');
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  }
  onCleanup(async () => {
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      log(`database ${name} dropped`);
    } catch (error) {
      log(`could not drop database ${name}: ${error.message}`);
    }
    await admin.end().catch(() => {});
  });
  return {
    name,
    version: rows[0].server_version,
    admin,
    kind: server.kind,
    target: server.target,
    statementTimes: STATEMENT_TIMES,
  };
}

/** The settings of the built app as `npm start` runs it, on `database` with the demo data. */
async function demoAppEnv(database) {
  return {
    DATABASE_URL: await databaseUrl(database.name),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD,
    DEMO_DATA: 'true',
    NODE_ENV: 'production',
  };
}

/** The built app as `npm start` runs it, on a fresh database with the demo data. */
async function startDemoApp() {
  return startServer('app', 'dist/src/main.js', await demoAppEnv(await createDatabase()));
}

/** Debian's Chromium (CHROMIUM_PATH names another), closed by cleanup(). */
async function launchChromium() {
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  });
  onCleanup(() => browser.close());
  return browser;
}

/** A server child process; its output is kept (last 20 kB) for error reports. */
async function startServer(label, script, env) {
  const port = await freePort();
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = { label, child, port, base: `http://127.0.0.1:${port}`, output: '' };
  const keep = (chunk) => {
    server.output = (server.output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  server.exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  children.add(server);
  await waitHealthy(server);
  return server;
}

async function waitHealthy(server, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let exit;
  server.exited.then((value) => (exit = value));
  while (Date.now() < deadline) {
    if (exit) break;
    try {
      const response = await fetch(`${server.base}/health`);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(
    `${server.label} did not become healthy${exit ? ` (exited: ${JSON.stringify(exit)})` : ''}\n` +
      `--- its output ---\n${server.output}`,
  );
}

async function stopServer(server) {
  if (!children.has(server)) return;
  children.delete(server);
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGTERM');
    const killer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
    await server.exited;
    clearTimeout(killer);
  }
}

async function request(base, method, urlPath, { headers = {}, body } = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    if (typeof body !== 'string') init.headers['content-type'] = 'application/json';
  }
  const response = await fetch(base + urlPath, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

/**
 * Logs in (as admin by default) and creates an API key; `signInAs` does the same for
 * another user of the app.
 */
async function signIn(app, user = 'admin', password = ADMIN_PASSWORD) {
  const login = await request(app.base, 'POST', '/auth', { body: { user, password } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const csrfToken = login.headers.get('x-csrf-token');
  if (!cookie.includes('svc.rest.auth.token=') || !csrfToken) {
    throw new Error(`login gave no session cookie or CSRF token: ${login.text}`);
  }
  const created = await request(app.base, 'POST', '/auth/api-keys', {
    headers: { cookie, 'x-csrf-token': csrfToken },
    body: { name: 'bench' },
  });
  if (created.status !== 201)
    throw new Error(`POST /auth/api-keys: ${created.status} ${created.text}`);
  const apiKey = JSON.parse(created.text).key;
  return {
    cookie,
    csrfToken,
    apiKey,
    request: (method, urlPath, options) => request(app.base, method, urlPath, options),
    signInAs: (otherUser, otherPassword) => signIn(app, otherUser, otherPassword),
  };
}

/** The p-th percentile (nearest rank) of numbers sorted ascending, to 0.01. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)] * 100) / 100;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * A seeded generator of numbers in [0, 1) (mulberry32), seeded from a text: the same
 * sequence in every run, where Math.random would ask other rows each time.
 */
function seededRandom(seedText) {
  let seed = 2166136261; // FNV-1a of the text
  for (let i = 0; i < seedText.length; i++) {
    seed = Math.imul(seed ^ seedText.charCodeAt(i), 16777619);
  }
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Samples a process's resident set size (VmRSS of /proc/<pid>/status, Linux) every
 * `everyMs`; the returned stop() gives the largest in KiB, or undefined where there is
 * no /proc.
 */
function sampleRss(pid, everyMs = 500) {
  let max;
  const read = () => {
    try {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) max = Math.max(max ?? 0, Number(match[1]));
    } catch {
      // no /proc, or the process has gone
    }
  };
  read();
  const timer = setInterval(read, everyMs);
  return () => {
    clearInterval(timer);
    read();
    return max;
  };
}

/** Clock ticks per second of /proc/<pid>/stat's times (sysconf CLK_TCK: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** utime + stime of a process, in ticks (0 when it has gone). */
function cpuTicksOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces), from the 3rd: utime is 14th, stime 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The processes named `postgres` (the embedded server's, or a local server's). */
function postgresPids() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(entry);
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * CPU time spent from now until the returned stop(): by the process `pid`, and by all of
 * PostgreSQL's processes (backends that exit meanwhile are missed: the pools keep theirs).
 * In ms; undefined where there is no /proc.
 */
function sampleCpu(pid) {
  if (!existsSync('/proc/self/stat')) return () => undefined;
  const before = { server: cpuTicksOf(pid), postgres: new Map() };
  for (const p of postgresPids()) before.postgres.set(p, cpuTicksOf(p));
  return () => {
    let postgres = 0;
    for (const p of postgresPids()) postgres += cpuTicksOf(p) - (before.postgres.get(p) ?? 0);
    const ms = (ticks) => (ticks * 1000) / TICKS_PER_SECOND;
    return { serverMs: ms(cpuTicksOf(pid) - before.server), postgresMs: ms(postgres) };
  };
}

/** Work for cleanup(), run after the servers stop (last registered, first run). */
function onCleanup(work) {
  cleanups.unshift(work);
}

function cleanup() {
  cleaningUp ??= (async () => {
    await Promise.allSettled([...children].map((server) => stopServer(server)));
    for (const work of cleanups) await work().catch((error) => log(`cleanup: ${error.message}`));
  })();
  return cleaningUp;
}

/** Runs `main`, then cleans up; Ctrl-C and SIGTERM clean up too. */
function runBenchmark(main) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      log(`${signal}: stopping`);
      cleanup().finally(() => process.exit(130));
    });
  }
  main()
    .then(() => cleanup())
    .catch(async (error) => {
      console.error(`[bench] failed: ${error.stack ?? error}`);
      await cleanup();
      process.exitCode = 1;
    });
}

module.exports = {
  ADMIN_PASSWORD,
  createDatabase,
  databaseUrl,
  demoAppEnv,
  launchChromium,
  log,
  median,
  numberFromEnv,
  onCleanup,
  percentile,
  request,
  runBenchmark,
  sampleCpu,
  sampleRss,
  seededRandom,
  signIn,
  sleep,
  startDemoApp,
  startServer,
  stopServer,
};
