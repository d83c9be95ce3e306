import { readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_NAME = 'atrium.lock';

/**
 * One process at a time runs the database of a DATA_DIR: a second server, or the CLI
 * while no server runs, would start a second postmaster on the same files. The lock names
 * its owner (pid, and on Linux when that process started), so a killed owner's lock is
 * recognised as stale and taken over, even when a container restart gave its pid to
 * another process.
 */
export async function lockDataDir(root: string): Promise<void> {
  const lockPath = join(root, LOCK_NAME);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockPath, ownerOf(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = (await readFile(lockPath, 'utf8').catch(() => '')).trim();
      const pid = Number(owner.split(' ')[0]);
      if (pid && pid !== process.pid && ownerOf(pid) === owner) {
        throw new Error(
          `The embedded database in ${root} is in use by process ${pid}: ` +
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
