import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const LOCK_NAME = 'atrium.lock';

/**
 * One process at a time runs the database of a DATA_DIR: a second server, or the CLI
 * while no server runs, would start a second postmaster on the same files. The lock names
 * its owner's pid, so a killed owner's lock is recognised as stale and taken over.
 */
export async function lockDataDir(root: string): Promise<void> {
  const lockPath = join(root, LOCK_NAME);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockPath, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(await readFile(lockPath, 'utf8').catch(() => ''));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The embedded database in ${root} is in use by process ${owner}: ` +
            'one Atrium server runs on a DATA_DIR at a time',
        );
      }
      await rm(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${root}`);
}

export function unlockDataDir(root: string): Promise<void> {
  return rm(join(root, LOCK_NAME), { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
