import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** Commands of the tour, and the lines of their output that the README shows. */
export interface TourStep {
  commands: string;
  shown: string[];
}

export interface StepResult {
  output: string;
  /** Commands that exited with a status other than 0, as bash's ERR trap saw them. */
  failures: string[];
}

const TOUR = /<!-- tour -->([\s\S]*?)<!-- \/tour -->/;
const SH_BLOCK = /^```sh\n([\s\S]*?)^```$/gm;
const SHOWN = '# → ';
/** Where the tour's first block says the server is: the test's own server goes there. */
export const README_BASE = 'BASE=http://127.0.0.1:3000';

/**
 * The ```sh blocks between `<!-- tour -->` and `<!-- /tour -->`, cut into steps: a step
 * is the commands up to a run of `# → ` lines, which show lines of their output.
 */
export function tourSteps(readme: string): TourStep[] {
  const tour = TOUR.exec(readme);
  if (!tour) throw new Error('README.md has no <!-- tour --> … <!-- /tour --> section');
  const steps: TourStep[] = [];
  for (const [, block] of tour[1].matchAll(SH_BLOCK)) {
    let step: TourStep = { commands: '', shown: [] };
    for (const line of block.trimEnd().split('\n')) {
      if (line.startsWith(SHOWN)) {
        step.shown.push(line.slice(SHOWN.length));
        continue;
      }
      if (step.shown.length > 0) {
        steps.push(step);
        step = { commands: '', shown: [] };
      }
      step.commands += `${line}\n`;
    }
    if (step.commands.trim() !== '' || step.shown.length > 0) steps.push(step);
  }
  return steps;
}

/**
 * Runs the steps in one bash, as a reader pasting them into one terminal would, and
 * splits the output by step. curl reads `curlrc` from CURL_HOME, which bounds each
 * request; the whole run is killed after `timeoutMs`.
 */
export async function runTour(
  steps: TourStep[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<StepResult[]> {
  const mark = `@@tour-${randomBytes(6).toString('hex')}@@`;
  const script = [
    'set -o pipefail',
    `trap 'printf "\\n${mark} failed %s: %s\\n" "$?" "$BASH_COMMAND"' ERR`,
    ...steps.map((step) => `printf '\\n${mark} step\\n'\n${step.commands}`),
  ].join('\n');
  const output = await runBash(script, options);
  const parts = output.split(`\n${mark} step\n`).slice(1);
  if (parts.length !== steps.length) {
    throw new Error(`The tour stopped after ${parts.length} of ${steps.length} steps:\n${output}`);
  }
  return parts.map((part) => {
    const failed = new RegExp(`^${mark} failed (.*)$`, 'gm');
    return {
      output: part.replace(failed, '').trim(),
      failures: [...part.matchAll(failed)].map(([, failure]) => failure),
    };
  });
}

function runBash(
  script: string,
  { cwd, env, timeoutMs }: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<string> {
  return new Promise((done, fail) => {
    const bash = spawn('bash', ['-c', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    let output = '';
    bash.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    bash.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    bash.once('error', fail);
    bash.once('close', (code, signal) =>
      signal ? fail(new Error(`The tour was stopped (${signal}):\n${output}`)) : done(output),
    );
  });
}

/**
 * The shown lines that the output lacks: each must match a whole line, after the line
 * the one before it matched. `…` stands for any text; header names match in any case,
 * since HTTP ignores it (Fastify sends them in lower case).
 */
export function missingLines(shown: string[], output: string): string[] {
  const lines = output.split(/\r?\n/).map(headerNameInLowerCase);
  const missing: string[] = [];
  let from = 0;
  for (const expected of shown) {
    const pattern = new RegExp(
      `^${headerNameInLowerCase(expected).split('…').map(escapeRegExp).join('.*')}$`,
    );
    const at = lines.findIndex((line, i) => i >= from && pattern.test(line));
    if (at === -1) missing.push(expected);
    else from = at + 1;
  }
  return missing;
}

function headerNameInLowerCase(line: string): string {
  return line.replace(/^[A-Za-z0-9-]+(?=: )/, (name) => name.toLowerCase());
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
