import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { Client } from 'pg';
import {
  EMBEDDED_SOCKET_NAME,
  runningEmbeddedUrl,
  stopLeftoverServer,
} from '../src/database/embedded-postgres';
import { assertBuilt, BUILT_SERVER, environmentWithout, runCli } from './helpers/child-process';
import { isAlive, postmasterPid, waitFor } from './helpers/postmaster';
import { MIGRATIONS } from '../src/database/migrations';
import {
  bannerOf,
  jsonLogLines,
  logMessages,
  logOf,
  running,
  ServerProcess,
} from './helpers/server-process';
import { steps } from './helpers/steps';

const ROOT = join(__dirname, '..');
const SHUTDOWN_LIMIT_MS = 5_000;
/** pino's level of a warning: something an operator should act on. */
const WARN = 40;
const PASSWORD_MESSAGE = /^Created user "admin"; its password is in (\S+): /;

/**
 * One server's life on one embedded DATA_DIR, step by step: each test starts from the
 * state the previous one left (first start, a second server, crash, CLI beside it, CLI
 * alone, shutdown).
 */
describe('the built server as a process on its own embedded database', () => {
  let workDir: string;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let server: ServerProcess;
  let adminPassword: string;
  let apiKey: string;

  const step = steps();

  const socketPath = () => join(dataDir, 'pgdata', EMBEDDED_SOCKET_NAME);
  /** A query through the running database's private socket, as the admin CLI does. */
  const queryEmbedded = async (sql: string) => {
    const client = new Client({ connectionString: (await runningEmbeddedUrl(dataDir))! });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };
  /** Sessions on the embedded database besides the one asking: the server's, the CLI's. */
  const sessionsOfOthers = async () =>
    (
      await queryEmbedded(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      )
    )[0].n as number;
  const logIn = (user: string, password: string) =>
    request(server.url).post('/auth').send({ user, password });

  beforeAll(async () => {
    assertBuilt(BUILT_SERVER);
    // Short: the socket path inside DATA_DIR must fit a unix socket's ~107 bytes.
    workDir = await mkdtemp(join(tmpdir(), 'atr-'));
    // Run by root, the database server runs as `postgres`, which must reach DATA_DIR.
    await chmod(workDir, 0o755);
    dataDir = join(workDir, 'data');
    // LOG_LEVEL and LOG_FORMAT unset, as a newcomer starts it (the tests' own is silent).
    env = {
      ...environmentWithout(
        'DATABASE_URL',
        'ADMIN_PASSWORD',
        'TEST_DATABASE_URL',
        'LOG_LEVEL',
        'LOG_FORMAT',
      ),
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
    };
  });

  afterAll(async () => {
    for (const child of running) await child.kill('SIGKILL');
    await stopLeftoverServer(dataDir);
    await rm(workDir, { recursive: true, force: true });
  });

  step(
    'writes the random admin password to a file of its own on first start, never to the log',
    async () => {
      server = await ServerProcess.start(env, workDir);
      expect(logMessages(server.output)).toContain(
        `Created the embedded PostgreSQL database in ${join(dataDir, 'pgdata')}`,
      );
      const passwordLines = logMessages(server.output).filter((msg) => PASSWORD_MESSAGE.test(msg));
      expect(passwordLines).toHaveLength(1);
      const passwordFile = PASSWORD_MESSAGE.exec(passwordLines[0])![1];
      expect(passwordFile).toBe(join(dataDir, 'admin-password'));
      expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
      adminPassword = (await readFile(passwordFile, 'utf8')).trim();
      expect(adminPassword).toMatch(/^\S{20}$/);
      expect(server.output).not.toContain(adminPassword);

      const { body } = await logIn('admin', adminPassword).expect(200);
      expect(body.userName).toBe('admin');
    },
  );

  step(
    'logs its first start in JSON lines on a pipe, a line per migration, no routes, no warnings',
    async () => {
      const lines = jsonLogLines(logOf(server.output));
      expect(lines.filter((line) => line.level >= WARN)).toEqual([]);
      expect(lines.map((line) => line.context)).not.toContain('RouterExplorer');
      expect(lines.map((line) => line.context)).not.toContain('RoutesResolver');
      const applied = lines.filter((line) => line.context === 'TypeORM').map((line) => line.msg);
      expect(applied).toEqual(MIGRATIONS.map(({ name }) => `Applied migration ${name}`));
    },
  );

  step('ends every start saying where things are, as plain lines on a pipe', async () => {
    // Written just after the line ServerProcess waits for: it may not have come yet.
    await waitFor(() => bannerOf(server.output) !== undefined);
    expect(bannerOf(server.output)).toEqual([
      'Atrium is ready',
      `  Server          ${server.url}`,
      `  Console         ${server.url}/console/ (user "admin")`,
      `  API reference   ${server.url}/docs`,
      `  Documentation   ${join(ROOT, 'docs/README.md')}`,
      '  Admin password  data/admin-password (sign in, change it, delete the file)',
    ]);
    // The last lines of the start: nothing came after it but requests.
    expect(server.output.trimEnd().split('\n').at(-1)).toMatch(/^ {2}Admin password/);
  });

  step("serves the console from the project's build, whatever directory it runs in", async () => {
    const page = await request(server.url).get('/console/').expect(200);
    expect(page.text).toContain('<div id="root">');
    const script = /<script[^>]*\ssrc="([^"]+)"/.exec(page.text)![1];
    await request(server.url)
      .get(script)
      .expect(200)
      .expect('Content-Type', /javascript/);
  });

  step('runs a PostgreSQL server process that listens on its socket only', async () => {
    const pid = postmasterPid(dataDir)!;
    expect(pid).not.toBe(server.child.pid);
    expect(isAlive(pid)).toBe(true);
    const [settings] = await queryEmbedded(
      `SELECT current_setting('listen_addresses') AS tcp, current_setting('server_version_num')::int AS version`,
    );
    expect(settings.tcp).toBe('');
    expect(settings.version).toBeGreaterThanOrEqual(180000);
  });

  step('seeds no demo data when DEMO_DATA is false', async () => {
    expect(logMessages(server.output).join('\n')).not.toMatch(/Seeded demo data/);
    const [{ accounts }] = await queryEmbedded(`SELECT count(*)::int AS accounts FROM account`);
    expect(accounts).toBe(0);
  });

  step('refuses a second server on the same DATA_DIR, naming the first', async () => {
    const second = await ServerProcess.start(env, workDir).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(second).toMatch(/exited with code 1 before listening/);
    expect(second).toContain(
      `The embedded database in ${dataDir} is in use by process ${server.child.pid}`,
    );
    await request(server.url).get('/health').expect(200);
  });

  step(
    'survives SIGKILL: stops the orphaned database, restarts, keeps what it acknowledged',
    async () => {
      const session = await logIn('admin', adminPassword).expect(200);
      const cookie = (session.headers['set-cookie'] as unknown as string[])
        .map((line) => line.split(';')[0])
        .join('; ');
      const { body: created } = await request(server.url)
        .post('/auth/api-keys')
        .set('Cookie', cookie)
        .set('X-CSRF-Token', session.headers['x-csrf-token'])
        .send({ name: 'survives a crash' })
        .expect(201);
      apiKey = created.key;

      const orphan = postmasterPid(dataDir)!;
      await server.kill('SIGKILL');
      // The database outlives the killed server: its own session, its own process.
      expect(isAlive(orphan)).toBe(true);

      server = await ServerProcess.start(env, workDir);
      expect(logMessages(server.output)).toContain(
        `Stopped the embedded PostgreSQL (pid ${orphan}) left running by an earlier Atrium`,
      );
      expect(isAlive(orphan)).toBe(false);
      expect(postmasterPid(dataDir)).not.toBe(orphan);
      expect(server.output).not.toMatch(/its password is in/);
      expect(server.output).not.toContain(adminPassword);
      // A later start says where things are too, the password's file while it is there.
      await waitFor(() => bannerOf(server.output) !== undefined);
      expect(bannerOf(server.output)).toContain(
        '  Admin password  data/admin-password (sign in, change it, delete the file)',
      );
      const { body } = await request(server.url).get('/auth').set('X-API-Key', apiKey).expect(200);
      expect(body.userName).toBe('admin');
      await logIn('admin', adminPassword).expect(200);
    },
  );

  step('logs each request at info with its id, never an API key given in the query', async () => {
    await request(server.url)
      .get(`/auth?apiKey=${apiKey}`)
      .set('X-Request-Id', 'trace-me-1')
      .expect(200)
      .expect('X-Request-Id', 'trace-me-1');
    await waitFor(() => server.output.includes('trace-me-1'));
    const line = server.output.split('\n').find((l) => l.includes('trace-me-1'))!;
    const logged = JSON.parse(line) as { msg: string; req: { id: string; url: string } };
    expect(logged).toMatchObject({
      msg: expect.stringMatching(/^GET \/auth\?apiKey=\[Redacted\] 200 \d+ ms$/),
      req: { id: 'trace-me-1', url: '/auth?apiKey=[Redacted]' },
    });
    expect(server.output).not.toContain(apiKey);
  });

  step(
    'keeps no bytes without a record after SIGKILL during uploads, and loses none it recorded',
    async () => {
      const filesDir = join(dataDir, 'files');
      const storedFiles = async () =>
        (await readdir(filesDir, { recursive: true }))
          .map(String)
          .filter((path) => /^[0-9a-f]{2}\/[0-9a-f]{64}$/.test(path))
          .map((path) => path.slice(3));
      const recorded = async () =>
        new Set(
          (await queryEmbedded(`SELECT DISTINCT sha256 FROM file_version WHERE driver = 'fs'`)).map(
            (row: { sha256: string }) => row.sha256,
          ),
        );
      /** The sha256 of each upload the server answered 201: recorded. */
      const acknowledged = new Set<string>();
      const uploads = Array.from({ length: 40 }, (_, i) =>
        request(server.url)
          .post('/storage')
          .set('X-API-Key', apiKey)
          .attach('file', randomBytes(256 * 1024 + i), `killed-${i}.bin`)
          .then(
            (response) => {
              if (response.status === 201) acknowledged.add(response.body.sha256);
            },
            () => undefined,
          ),
      );
      // Killed once some are recorded and the bytes of others are in: none recorded would
      // leave "loses none" nothing to check.
      await waitFor(
        async () => acknowledged.size > 0 && (await storedFiles()).length >= 10,
        30_000,
      );
      // What the kill leaves depends on timing; bytes renamed in and never recorded, as a
      // kill between the rename and the record leaves them, are there whatever it hits.
      const planted = createHash('sha256').update('renamed in, never recorded').digest('hex');
      await mkdir(join(filesDir, planted.slice(0, 2)), { recursive: true });
      await writeFile(join(filesDir, planted.slice(0, 2), planted), 'renamed in, never recorded');
      await server.kill('SIGKILL');
      await Promise.all(uploads);
      // The database outlived the kill. Once the killed server's sessions have left it (a
      // session ends when the statement it runs is done), nothing more commits: what it
      // holds now is what was recorded.
      await waitFor(async () => (await sessionsOfOthers()) === 0, 30_000);
      const known = await recorded();
      expect([...acknowledged].filter((sha256) => !known.has(sha256))).toEqual([]);
      const orphans = (await storedFiles()).filter((name) => !known.has(name));
      expect(orphans).toContain(planted);
      // The sweep's grace, passed: as if the crash had happened an hour ago.
      const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
      for (const name of await storedFiles()) {
        await utimes(join(filesDir, name.slice(0, 2), name), hourAgo, hourAgo);
      }

      server = await ServerProcess.start(env, workDir);
      await waitFor(async () => (await storedFiles()).every((name) => known.has(name)));
      // Every recorded version still has its bytes.
      expect(new Set(await storedFiles())).toEqual(known);
      // The sweep logs once its last file is gone: the line may not have arrived yet.
      const sweepLine = () => logMessages(server.output).find((m) => m.startsWith('Removed '));
      await waitFor(() => sweepLine() !== undefined);
      expect(sweepLine()).toBe(`Removed ${orphans.length} stored files no version names`);
    },
  );

  step("lets the CLI create a user through the running server's socket", async () => {
    const result = await runCli(
      ['user:create', '--org', 'Demo', '--user', 'beside_server', '--password', 'beside-pass-1'],
      { env, cwd: workDir },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(server.isRunning).toBe(true);

    const { body } = await logIn('beside_server', 'beside-pass-1').expect(200);
    expect(body.userName).toBe('beside_server');
  });

  step(
    'lets the CLI start the database itself while the server is down, then the server starts',
    async () => {
      expect((await server.kill('SIGTERM')).code).toBe(0);

      const result = await runCli(
        ['user:create', '--org', 'Demo', '--user', 'server_down', '--password', 'down-pass-1'],
        { env, cwd: workDir },
      );
      expect(result).toMatchObject({ code: 0, stderr: '' });
      // Stopped cleanly: the socket went with the CLI's database.
      expect(existsSync(socketPath())).toBe(false);

      // At a terminal's format: lines for people, requests only at debug.
      await rm(join(dataDir, 'admin-password'));
      server = await ServerProcess.start({ ...env, LOG_FORMAT: 'pretty' }, workDir);
      expect(server.output).not.toMatch(/its password is in|Stopped the embedded PostgreSQL/);
      await logIn('server_down', 'down-pass-1').expect(200);
      await request(server.url).get('/auth').set('X-API-Key', apiKey).expect(200);
      await waitFor(() => /API reference/.test(server.output));
      const plain = stripVTControlCharacters(server.output);
      expect(plain).toMatch(/INFO: Atrium is ready\n {2}Server {10}http:/);
      expect(plain).toContain(`  Documentation   ${join(ROOT, 'docs/README.md')}`);
      // Deleted: the banner no longer names the file.
      expect(plain).not.toMatch(/Admin password/);
      expect(plain).not.toMatch(/POST \/auth|GET \/auth/);
    },
  );

  step('says what it waits for on SIGTERM, lets a request finish, then stops', async () => {
    const { code } = await server.kill('SIGTERM');
    expect(code).toBe(0);
    server = await ServerProcess.start(env, workDir);
    // An upload whose body is half sent when the signal comes.
    const boundary = 'atrium-drain';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="late.txt"\r\nContent-Type: text/plain\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const upload = httpRequest(`${server.url}/storage`, {
      method: 'POST',
      headers: {
        'X-API-Key': apiKey,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    const answered = new Promise<number>((done, fail) => {
      upload.on('response', (response) => done(response.resume().statusCode!));
      upload.on('error', fail);
    });
    upload.write(`${head}first half, `);
    // Under way: its bytes have begun to reach a temporary file.
    const temporary = join(dataDir, 'files', 'tmp');
    await waitFor(async () => existsSync(temporary) && (await readdir(temporary)).length > 0);
    server.child.kill('SIGTERM');
    await waitFor(() => logMessages(server.output).some((m) => m.startsWith('Stopping')));
    upload.end(`second half${tail}`);
    expect(await answered).toBe(201);
    const { code: stopped } = await server.exited;
    expect(stopped).toBe(0);
    const messages = logMessages(server.output);
    expect(messages).toContain('Stopping (SIGTERM): letting 1 request finish…');
    // The request's own line may come after: it is the app's logger's, written on its own.
    expect(messages.find((message) => message.startsWith('Stopped'))).toMatch(
      /^Stopped in \d+ ms: 1 request finished; the embedded database stopped$/,
    );
    server = await ServerProcess.start(env, workDir);
  });

  step('exits with code 0 on SIGTERM within a few seconds, the database stopped', async () => {
    expect(existsSync(socketPath())).toBe(true);
    const postmaster = postmasterPid(dataDir)!;
    const { code, ms } = await server.kill('SIGTERM');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(SHUTDOWN_LIMIT_MS);
    expect(isAlive(postmaster)).toBe(false);
    expect(existsSync(socketPath())).toBe(false);
    expect(existsSync(join(dataDir, 'atrium.lock'))).toBe(false);
  });

  step(
    'starts over pid files whose pids other processes have now (a restarted container)',
    async () => {
      // Both naming a live process that is neither Atrium nor PostgreSQL, of the user the
      // database runs as (else PostgreSQL could not signal it, and would take it for gone).
      const { uid, gid } = statSync(join(dataDir, 'pgdata'));
      const stranger = spawn('sleep', ['60'], { uid, gid });
      try {
        const pidFile = join(dataDir, 'pgdata', 'postmaster.pid');
        await writeFile(pidFile, `${stranger.pid}\n${join(dataDir, 'pgdata')}\n`);
        await chown(pidFile, uid, gid);
        await writeFile(join(dataDir, 'atrium.lock'), String(stranger.pid));

        server = await ServerProcess.start(env, workDir);
        expect(isAlive(stranger.pid!)).toBe(true);
        await request(server.url).get('/auth').set('X-API-Key', apiKey).expect(200);
        expect((await server.kill('SIGTERM')).code).toBe(0);
      } finally {
        stranger.kill();
      }
    },
  );
});
