import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The PGlite that wrote the data files of Atrium before 0.2 (PostgreSQL 18 in WASM). */
export const PGLITE_PACKAGE = '@electric-sql/pglite';
export const PGLITE_VERSION = '0.5.14';

const PGLITE_SPEC = `${PGLITE_PACKAGE}@${PGLITE_VERSION}`;

/** Runs npm with `args`: the npm that started this process (npm_execpath), else the one on PATH. */
function npm(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const npmCli = process.env.npm_execpath;
  const [program, prefix] = npmCli ? [process.execPath, [npmCli]] : ['npm', []];
  return execFileAsync(program, [...prefix, ...args], { env });
}

/**
 * Installs PGlite from the npm registry into `prefix` (a new directory of the caller's:
 * Atrium no longer depends on PGlite, and code found in a shared place is not run) and
 * returns the path of its CommonJS entry. With npm_config_offline=true in `env`, npm
 * takes it from its cache only (see cachePglite).
 */
export async function installPglite(
  prefix: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  await npm(
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      PGLITE_SPEC,
    ],
    env,
  );
  // The entry of this pinned version (its package.json "exports", condition "require").
  return join(prefix, 'node_modules', PGLITE_PACKAGE, 'dist', 'index.cjs');
}

/**
 * Puts PGlite into npm's cache, from the registry unless it is there already; then
 * installPglite works offline. .ci/run and the conversion's test suite call it before
 * they convert, so that the conversion itself reaches no registry. Without a registry
 * it fails within a minute, not after npm's usual retries.
 */
export async function cachePglite(): Promise<void> {
  try {
    await npm([
      'cache',
      'add',
      '--prefer-offline',
      '--fetch-timeout=20000',
      '--fetch-retries=1',
      PGLITE_SPEC,
    ]);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? (error as Error).message;
    // npm's reason, without its stack.
    const said = stderr
      .split('\n')
      .filter((line) => line.trim() && !/^npm error\s+at /.test(line))
      .slice(0, 5)
      .join('\n');
    throw new Error(
      `${PGLITE_SPEC} is not in npm's cache and could not be fetched from the registry ` +
        `(offline?). Run "npm cache add ${PGLITE_SPEC}" once online. npm said:\n${said}`,
    );
  }
}
