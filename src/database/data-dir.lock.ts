import { readFileSync } from 'node:fs';
import { link, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const LOCK_NAME = 'atrium.lock';
/** Made by the one process that may replace a stale lock (named after the stale owner). */
const CLAIM_PREFIX = `${LOCK_NAME}.replacing-`;
const ATTEMPTS = 5;
const RETRY_MS = 50;

/**
 * One process at a time runs the database of a DATA_DIR: a second server, or the CLI
 * while no server runs, would start a second postmaster on the same files. The lock names
 * its owner (pid, and on Linux when that process started), so a killed owner's lock is
 * recognised as stale, even when a container restart gave its pid to another process.
 *
 * Processes starting at once must not both win: the lock is created with its content in
 * one step (a hard link), and a stale one is replaced only by the process that creates
 * the claim named after its owner, and only while it still names that owner.
 */
export async function lockDataDir(root: string): Promise<void> {
  const lockPath = join(root, LOCK_NAME);
  const me = ownerOf(process.pid);
  let stale = '';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (attempt > 0) await sleep(RETRY_MS);
    if (await createWith(lockPath, me)) return;
    const owner = await readOwner(lockPath);
    if (owner === undefined) continue;
    if (owner === me) return;
    if (ownerOf(Number(owner.split(' ')[0])) === owner) {
      const pid = owner.split(' ')[0];
      throw new Error(
        `The embedded database in ${root} is in use by process ${pid}: ` +
          'one Atrium server runs on a DATA_DIR at a time',
      );
    }
    stale = owner;
    const claim = join(root, `${CLAIM_PREFIX}${owner.replace(/\W/g, '_')}`);
    if (!(await createWith(claim, me))) continue;
    if ((await readOwner(lockPath)) !== owner) continue;
    await replaceWith(lockPath, me);
    return;
  }
  throw new Error(
    `Could not lock the embedded database in ${root}` +
      (stale
        ? `: a start that died while taking over ${LOCK_NAME} left ${CLAIM_PREFIX}*; remove it`
        : ''),
  );
}

/** Ends this process's lock, and the claims that replaced stale ones on the way. */
export async function unlockDataDir(root: string): Promise<void> {
  const claims = (await readdir(root).catch(() => [])).filter((n) => n.startsWith(CLAIM_PREFIX));
  await Promise.all(claims.map((name) => rm(join(root, name), { force: true })));
  await rm(join(root, LOCK_NAME), { force: true });
}

/** `path` made holding `content`, atomically; false when it exists. */
async function createWith(path: string, content: string): Promise<boolean> {
  const draft = `${path}.${process.pid}.draft`;
  await writeFile(draft, content);
  try {
    await link(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(draft, { force: true });
  }
}

/** `path` replaced by one holding `content`, atomically: a reader sees the old or the new. */
async function replaceWith(path: string, content: string): Promise<void> {
  const draft = `${path}.${process.pid}.draft`;
  await writeFile(draft, content);
  await rename(draft, path);
}

async function readOwner(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
}

/** `<pid> <start time>` of a running process (the pid alone where /proc is missing); '' if none. */
function ownerOf(pid: number): string {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return '';
  }
  try {
    // Field 22 of /proc/<pid>/stat: clock ticks from boot to the process's start.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return `${pid} ${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  } catch {
    return String(pid);
  }
}
