import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { minVersion, satisfies } from 'semver';
import { stopLeftoverServer } from '../src/database/embedded-postgres';
import { assertBuilt, BUILT_SERVER, environmentWithout } from './helpers/child-process';
import {
  missingLines,
  README_BASE,
  runTour,
  StepResult,
  TourStep,
  tourSteps,
} from './helpers/readme-tour';
import { running, ServerProcess } from './helpers/server-process';

const ROOT = join(__dirname, '..');
const README = join(ROOT, 'README.md');
const REQUEST_TIMEOUT_SECONDS = 15;
const TOUR_TIMEOUT_MS = 120_000;

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six'];

/**
 * The README's line on what `npm install` still prints on the oldest Node it runs on: the
 * packages of the lockfile whose `engines` that Node does not satisfy warn EBADENGINE, and
 * the line names those, and only those.
 */
describe("the README's install line", () => {
  const readme = readFileSync(README, 'utf8');
  const line = readme.split('<!-- install-warnings -->\n')[1]?.split('\n')[0] ?? '';
  const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const oldest = minVersion(engines.node)!;
  const warned = Object.entries(lock.packages as Record<string, { engines?: unknown }>)
    .filter(([path, { engines }]) => {
      const range = (engines as { node?: string } | undefined)?.node;
      return path !== '' && range !== undefined && !satisfies(oldest, range);
    })
    .map(([path]) => path.split('node_modules/').at(-1)!);

  it('names the packages that warn on the oldest Node the install accepts, and how many', () => {
    expect(line).toMatch(new RegExp(`^On Node ${oldest.major}, \`npm install\` prints `));
    const named = [...line.matchAll(/`([^`]+)`/g)]
      .map((match) => match[1])
      .filter(
        (name) =>
          name in lock.packages['']!.dependencies || `node_modules/${name}` in lock.packages,
      );
    expect(new Set(named)).toEqual(new Set(warned));
    expect(line).toContain(`prints ${NUMBER_WORDS[warned.length]} \`EBADENGINE\` warning`);
  });

  it('accepts in engines the Node 20 and npm 10 it names, not only the runtime', () => {
    expect(satisfies('20.19.0', engines.node)).toBe(true);
    expect(engines.npm).toBe('>=10');
  });
});

/**
 * The README's five-minute tour, pasted into bash against a server started as the README's
 * first command starts one (embedded database, demo data, the admin's password in
 * data/admin-password): every line the README shows of an answer must be in that answer,
 * so the text and the server cannot drift apart.
 */
describe("the README's tour", () => {
  const steps = tourSteps(readFileSync(README, 'utf8'));
  let workDir: string;
  let results: StepResult[];

  beforeAll(async () => {
    assertBuilt(BUILT_SERVER);
    // Short: the socket path inside DATA_DIR must fit a unix socket's ~107 bytes.
    workDir = await mkdtemp(join(tmpdir(), 'atr-tour-'));
    // Run by root, the database server runs as `postgres`, which must reach DATA_DIR.
    await chmod(workDir, 0o755);
    const server = await ServerProcess.start(
      {
        ...environmentWithout(
          'DATABASE_URL',
          'TEST_DATABASE_URL',
          'DATA_DIR',
          'ADMIN_PASSWORD',
          'DEMO_DATA',
        ),
        // The server's start is read from its JSON log lines, whatever the caller's shell says.
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
      },
      workDir,
    );
    // Every request of the tour bounded, and none through a proxy: to this server only.
    await writeFile(
      join(workDir, '.curlrc'),
      `max-time = ${REQUEST_TIMEOUT_SECONDS}\nnoproxy = "*"\n`,
    );
    const ours = steps.map((step) => ({
      ...step,
      commands: step.commands.replace(README_BASE, `BASE=${server.url}`),
    }));
    results = await runTour(ours, {
      cwd: workDir,
      env: { PATH: process.env.PATH, HOME: workDir, CURL_HOME: workDir, TMPDIR: workDir },
      timeoutMs: TOUR_TIMEOUT_MS,
    });
  }, 60_000 + TOUR_TIMEOUT_MS);

  afterAll(async () => {
    for (const server of running) await server.kill('SIGTERM');
    if (!workDir) return;
    await stopLeftoverServer(join(workDir, 'data'));
    await rm(workDir, { recursive: true, force: true });
  });

  it('sends every request to the server that the first block names', () => {
    const commands = steps.map((step) => step.commands).join('');
    expect(commands.split('\n').filter((line) => line.startsWith('BASE='))).toEqual([README_BASE]);
    const requests = commands
      .split('\n')
      .filter((line) => !line.startsWith('#') && /\bcurl\b/.test(line));
    expect(requests.length).toBeGreaterThan(0);
    for (const line of requests) expect(line).toMatch(/\bcurl -\w+ "?\$BASE[/?]/);
  });

  const cases = steps.map((step, index) => ({ index, n: index + 1, command: title(step) }));
  it.each(cases)('step $n ($command) answers what the README shows', ({ index }) => {
    const { output, failures } = results[index];
    const shown = steps[index].shown;
    const missing = missingLines(shown, output);
    const unshown = shown.length === 0 && output !== '';
    if (failures.length > 0 || missing.length > 0 || unshown) {
      throw new Error(
        [
          ...failures.map((failure) => `Failed: ${failure}`),
          ...missing.map((line) => `Not in the answer: ${line}`),
          unshown ? 'The README shows no output, and there was some' : '',
          `The answer:\n${output}`,
        ].join('\n'),
      );
    }
  });
});

/** The step's request, or else its first command: what a failure names. */
function title({ commands }: TourStep): string {
  const lines = commands.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
  return lines.find((line) => line.startsWith('curl')) ?? lines[0];
}
