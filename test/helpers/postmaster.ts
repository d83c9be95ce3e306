import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The embedded database server's pid, from its pid file in DATA_DIR/pgdata. */
export function postmasterPid(dataDir: string): number | undefined {
  const pidFile = join(dataDir, 'pgdata', 'postmaster.pid');
  return existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : undefined;
}

/** Running: a process that exited but was not reaped yet (a zombie) does not count. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || !/^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
}

export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  ms = 5000,
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until)
      throw new Error(`timed out after ${ms} ms waiting for ${condition.toString()}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}
