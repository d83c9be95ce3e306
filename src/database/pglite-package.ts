import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The PGlite that wrote the data files of Atrium before 0.2 (PostgreSQL 18 in WASM). */
export const PGLITE_PACKAGE = '@electric-sql/pglite';
export const PGLITE_VERSION = '0.5.14';

/**
 * Installs PGlite from the npm registry into `prefix` (a new directory of the caller's:
 * Atrium no longer depends on PGlite, and code found in a shared place is not run) and
 * returns the path of its CommonJS entry.
 */
export async function installPglite(prefix: string): Promise<string> {
  const npm = process.env.npm_execpath;
  const [program, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  await execFileAsync(program, [
    ...args,
    'install',
    '--prefix',
    prefix,
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    `${PGLITE_PACKAGE}@${PGLITE_VERSION}`,
  ]);
  // The entry of this pinned version (its package.json "exports", condition "require").
  return join(prefix, 'node_modules', PGLITE_PACKAGE, 'dist', 'index.cjs');
}
