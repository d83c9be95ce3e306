import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_SERVER, environmentWithout, runToExit } from './helpers/child-process';
import { freePort } from './helpers/free-port';

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
});
