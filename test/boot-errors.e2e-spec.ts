import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_SERVER, environmentWithout, runToExit } from './helpers/child-process';
import { freePort } from './helpers/free-port';
import { withDatabase } from './helpers/suite-database';
import { Client } from 'pg';
import { randomBytes } from 'node:crypto';

/**
 * A server that cannot start says why in one log line, in the log's format, and exits
 * with 1: no stack dump for an operator to read through.
 */
describe('a failed start', () => {
  let workDir: string;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'atr-boot-'));
  });
  afterAll(() => rm(workDir, { recursive: true, force: true }));

  const start = (env: NodeJS.ProcessEnv) =>
    runToExit(BUILT_SERVER, [], {
      env: {
        ...environmentWithout('TEST_DATABASE_URL', 'DATABASE_URL'),
        DATA_DIR: join(workDir, 'data'),
        LOG_LEVEL: 'info',
        ...env,
      },
      cwd: workDir,
    });
  const lines = (output: string) => output.split('\n').filter((line) => line.trim() !== '');

  it('is one fatal JSON line naming what is wrong in the configuration, exit code 1', async () => {
    const { code, stdout, stderr } = await start({ PORT: 'eighty', BODY_LIMIT: 'huge' });
    expect(code).toBe(1);
    expect(stderr).toBe('');
    expect(lines(stdout)).toHaveLength(1);
    const line = JSON.parse(stdout) as { level: number; msg: string };
    expect(line.level).toBe(60);
    expect(line.msg).toMatch(/^Invalid configuration: .*PORT must be an integer number/);
    expect(line.msg).toContain('BODY_LIMIT must look like 100kb or 1mb');
  });

  it('is a readable line with LOG_FORMAT=pretty', async () => {
    const { code, stdout } = await start({ PORT: 'eighty', LOG_FORMAT: 'pretty' });
    expect(code).toBe(1);
    expect(lines(stdout)).toHaveLength(1);
    expect(stdout).toMatch(/FATAL.*Invalid configuration: .*PORT must be an integer number/);
    expect(stdout).not.toContain('{"level"');
  });

  it('names an unreachable database, after the connection retries', async () => {
    const port = await freePort(); // nothing listens there
    const { code, stdout } = await start({ DATABASE_URL: `postgres://atrium@127.0.0.1:${port}/x` });
    expect(code).toBe(1);
    const fatal = lines(stdout)
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.level === 60);
    expect(fatal).toEqual([
      expect.objectContaining({
        msg: `Atrium did not start: connect ECONNREFUSED 127.0.0.1:${port}`,
      }),
    ]);
    expect(stdout).not.toContain('    at ');
  }, 60_000);

  it('names a failing migration in the log and stops at once: no connection retries', async () => {
    // A database where the first migration cannot run: its first table is there already.
    const serverUrl = process.env.ATRIUM_TEST_SERVER_URL ?? process.env.TEST_DATABASE_URL!;
    const name = `atrium_boot_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
      const blocked = new Client({ connectionString: withDatabase(serverUrl, name) });
      await blocked.connect();
      await blocked.query('CREATE TABLE organization (x int)');
      await blocked.end();
      const started = Date.now();
      const { code, stdout, stderr } = await start({
        DATABASE_URL: withDatabase(serverUrl, name),
      });
      expect(code).toBe(1);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(stderr).toBe('');
      const logged = lines(stdout).map(
        (line) => JSON.parse(line) as { level: number; msg: string; context?: string },
      );
      // Two loggers write them (the app's and main's): the order of their lines may vary.
      const errors = logged.filter((line) => line.level >= 50).sort((a, b) => a.level - b.level);
      expect(errors).toEqual([
        expect.objectContaining({
          level: 50,
          context: 'TypeORM',
          msg: expect.stringMatching(
            /^Migration "Init\d+" failed, error: relation "organization" already exists$/,
          ),
        }),
        expect.objectContaining({
          level: 60,
          msg: 'Atrium did not start: relation "organization" already exists',
        }),
      ]);
      expect(stdout).not.toContain('Retrying');
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
