import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assertBuilt } from './helpers/child-process';

const BUILT_LOCK = resolve(__dirname, '../dist/src/database/data-dir.lock.js');
const CONTENDERS = 8;

/**
 * Each contender, a process of its own, tries to lock `dataDir` at the same instant. The
 * winner holds the lock until its stdin closes: on a loaded machine a contender can start
 * a second late, and a winner gone by then would leave a stale lock it may rightly take.
 */
const CONTENDER = `
  const { lockDataDir } = require(process.argv[1]);
  const [dataDir, at] = [process.argv[2], Number(process.argv[3])];
  process.stdin.resume();
  setTimeout(() => lockDataDir(dataDir).then(
    () => { console.log('won'); process.stdin.on('end', () => process.exit(0)); },
    (error) => { console.log(error.message); process.exit(0); },
  ), at - Date.now());`;

async function contend(dataDir: string): Promise<{ pid: number; said: string }[]> {
  const at = Date.now() + 700;
  const children = Array.from({ length: CONTENDERS }, () =>
    spawn(process.execPath, ['-e', CONTENDER, BUILT_LOCK, dataDir, String(at)]),
  );
  const results = await Promise.all(
    children.map(
      (child) =>
        new Promise<{ pid: number; said: string }>((done) => {
          let said = '';
          child.stdout.on('data', (chunk: Buffer) => {
            said += chunk.toString();
            if (said.endsWith('\n')) done({ pid: child.pid!, said: said.trim() });
          });
          // 'close', not 'exit': a contender that prints and exits at once can exit
          // before its output has been read, and would seem to have said nothing.
          child.once('close', () => done({ pid: child.pid!, said: said.trim() }));
        }),
    ),
  );
  // Every contender has answered: the winner may let go.
  await Promise.all(
    children.map((child) => {
      const exited = new Promise((done) =>
        child.exitCode === null ? child.once('exit', done) : done(undefined),
      );
      child.stdin.end();
      return exited;
    }),
  );
  return results;
}

/** Processes starting at once on one DATA_DIR (a supervisor restarting two servers). */
describe('the DATA_DIR lock, taken by processes at once', () => {
  let dataDir: string;

  beforeAll(() => assertBuilt(BUILT_LOCK));
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'atr-lock-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  const expectOneWinner = (results: { pid: number; said: string }[]) => {
    const winners = results.filter(({ said }) => said === 'won');
    expect(winners).toHaveLength(1);
    const inUse = `The embedded database in ${dataDir} is in use by process ${winners[0].pid}`;
    for (const { said } of results.filter((result) => result !== winners[0])) {
      expect(said).toContain(inUse);
    }
  };

  it('goes to one of them when there is no lock', async () => {
    for (let round = 0; round < 3; round++) {
      await rm(join(dataDir, 'atrium.lock'), { force: true });
      expectOneWinner(await contend(dataDir));
    }
  });

  it('goes to one of them when the lock is stale (its owner was killed)', async () => {
    for (let round = 0; round < 3; round++) {
      await writeFile(join(dataDir, 'atrium.lock'), `99999999${round} 1`);
      expectOneWinner(await contend(dataDir));
    }
  });
});
