import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from './free-port';

const SERVER = resolve(__dirname, '../fixtures/events-server.ts');
const TS_NODE = require.resolve('ts-node/register/transpile-only');

export interface EventsServer {
  child: ChildProcess;
  url: string;
}

/**
 * The fixture server (the app with an event subscriber writing account events' ids to
 * EVENTS_FILE) as a process of its own, listening on loopback.
 */
export async function startEventsServer(env: Record<string, string>): Promise<EventsServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', TS_NODE, SERVER], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
  });
  let output = '';
  await new Promise<void>((started, failed) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening')) started();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) =>
      failed(new Error(`exited with ${code} before listening:\n${output}`)),
    );
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Ends the process with `signal` and waits for it to be gone. */
export async function stopped(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill(signal);
  await exited;
}
