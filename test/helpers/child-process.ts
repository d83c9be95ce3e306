import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The built entry points: `npm test` builds first (the `pretest` script). */
export const BUILT_CLI = resolve(__dirname, '../../dist/src/cli.js');
export const BUILT_SERVER = resolve(__dirname, '../../dist/src/main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ChildOptions {
  env: NodeJS.ProcessEnv;
  /** The child reads ./.env from here; a fresh directory keeps a developer's .env out. */
  cwd: string;
}

export function assertBuilt(entryPoint: string): void {
  if (!existsSync(entryPoint)) {
    throw new Error(`${entryPoint} is missing: run "npm run build" before this suite`);
  }
}

/** Runs the built admin CLI to completion. */
export function runCli(args: string[], options: ChildOptions): Promise<CliResult> {
  return runToExit(BUILT_CLI, args, options);
}

/** Runs a built entry point (the CLI, or the server when it is to fail) to completion. */
export function runToExit(
  entryPoint: string,
  args: string[],
  { env, cwd }: ChildOptions,
): Promise<CliResult> {
  assertBuilt(entryPoint);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [entryPoint, ...args], { env, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The environment of this test process without the variables that pick a database. */
export function environmentWithout(...names: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of names) delete env[name];
  return env;
}
