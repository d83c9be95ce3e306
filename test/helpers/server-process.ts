import { ChildProcess, spawn } from 'node:child_process';
import { BUILT_SERVER } from './child-process';
import { freePort } from './free-port';

const STARTUP_TIMEOUT_MS = 30_000;
/** In JSON lines or pino-pretty's. */
const LISTENING = /Atrium listening on /;
/** The first line of the banner every start ends with, on a pipe: plain lines. */
const BANNER = 'Atrium is ready';

/** The built server as `npm start` runs it, with its output kept for the assertions. */
export class ServerProcess {
  output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((done) =>
      child.once('exit', (code, signal) => done({ code, signal })),
    );
  }

  static async start(env: NodeJS.ProcessEnv, cwd: string, port?: number): Promise<ServerProcess> {
    port ??= await freePort();
    const child = spawn(process.execPath, [BUILT_SERVER], {
      cwd,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    });
    const server = new ServerProcess(child, `http://127.0.0.1:${port}`);
    running.add(server);
    void server.exited.then(() => running.delete(server));
    await server.listening();
    return server;
  }

  get isRunning(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async kill(signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
    const started = Date.now();
    this.child.kill(signal);
    const { code } = await this.exited;
    return { code, ms: Date.now() - started };
  }

  private listening(): Promise<void> {
    return new Promise((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`The server did not start:\n${this.output}`)),
        STARTUP_TIMEOUT_MS,
      );
      const check = () => {
        if (LISTENING.test(this.output)) {
          clearTimeout(timer);
          done();
        }
      };
      this.child.stdout!.on('data', check);
      void this.exited.then(({ code }) => {
        clearTimeout(timer);
        fail(new Error(`The server exited with code ${code} before listening:\n${this.output}`));
      });
    });
  }
}

/** Servers started and not yet exited: a suite's afterAll kills what is left. */
export const running = new Set<ServerProcess>();

export interface LogLine {
  level: number;
  msg: string;
  context?: string;
}

/** The banner's lines (plain, amid JSON ones), once it has come. */
export function bannerOf(output: string): string[] | undefined {
  const lines = output.split('\n');
  const start = lines.indexOf(BANNER);
  if (start < 0) return undefined;
  const length = lines.slice(start).findIndex((line) => line === '' || line.startsWith('{'));
  return length < 0 ? undefined : lines.slice(start, start + length);
}

/** The output without the banner: the log's JSON lines. */
export function logOf(output: string): string {
  const banner = bannerOf(output);
  if (!banner) return output;
  const lines = output.split('\n');
  lines.splice(lines.indexOf(BANNER), banner.length);
  return lines.join('\n');
}

/** Each line of the output as pino's JSON; throws at the first line that is not JSON. */
export function jsonLogLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`Not a JSON line: ${line}`);
      }
    });
}

/** The `msg` of each pino JSON line. */
export function logMessages(output: string): string[] {
  return output.split('\n').flatMap((line) => {
    try {
      const { msg } = JSON.parse(line) as { msg?: unknown };
      return typeof msg === 'string' ? [msg] : [];
    } catch {
      return [];
    }
  });
}
