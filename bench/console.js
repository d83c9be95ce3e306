'use strict';
/**
 * `npm run bench:console`: how soon the console's first screen is usable in Chromium on
 * localhost (issue 18's target: under 1 s), against a bare page in the same run.
 *
 *   1. the built app on a fresh database with the demo data; a bare node:http server
 *      beside it sending one page whose script sets the same mark at once (the floor:
 *      the browser's own navigation and rendering on this machine)
 *   2. BENCH_LOADS (20) loads of each, every one in a new browser context (no cache, no
 *      cookies): the console's sign-in screen, the console's frame for a signed-in user
 *      (session cookie set, cache empty: GET /auth, the metadata, the navigation), and
 *      the bare page
 *   3. per load, the `atrium:first-screen` performance mark (ms from navigation start;
 *      the console sets it when the sign-in form shows, or the frame with its navigation),
 *      DOMContentLoaded and the bytes of script fetched; medians and 90th percentiles on
 *      stdout, JSON in bench/results/console.json
 *
 * Env: BENCH_DATABASE_URL, BENCH_LOADS (20), CHROMIUM_PATH (/usr/bin/chromium).
 */
const { mkdirSync, writeFileSync } = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const {
  launchChromium,
  log,
  median,
  numberFromEnv,
  onCleanup,
  percentile,
  runBenchmark,
  signIn,
  startDemoApp,
} = require('./harness');

const LOADS = numberFromEnv('BENCH_LOADS', 20);
const MARK = 'atrium:first-screen';
/** The floor: a page that is usable as soon as its one small script runs. */
const BARE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bare</title>
<script src="/bare.js" defer></script></head><body><form><label>User <input></label>
<button>Sign in</button></form></body></html>`;
const BARE_SCRIPT = `performance.mark(${JSON.stringify(MARK)});`;

function startBarePage() {
  const server = http.createServer((request, response) => {
    const script = request.url === '/bare.js';
    response.writeHead(200, {
      'Content-Type': script ? 'text/javascript' : 'text/html; charset=utf-8',
    });
    response.end(script ? BARE_SCRIPT : BARE_PAGE);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      onCleanup(() => new Promise((done) => server.close(done)));
      resolve(`http://127.0.0.1:${server.address().port}/`);
    }),
  );
}

/** One load in a fresh context: the mark, DOMContentLoaded, and the script bytes fetched. */
async function load(browser, url, cookies = []) {
  const context = await browser.newContext();
  await context.addCookies(cookies);
  const page = await context.newPage();
  let scriptBytes = 0;
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') {
      scriptBytes += Number(response.headers()['content-length'] ?? 0);
    }
  });
  await page.goto(url);
  const timing = await page.waitForFunction(
    (mark) => {
      const [entry] = performance.getEntriesByName(mark);
      const [navigation] = performance.getEntriesByType('navigation');
      return (
        entry && {
          firstScreen: entry.startTime,
          domContentLoaded: navigation.domContentLoadedEventEnd,
        }
      );
    },
    MARK,
    { polling: 10 },
  );
  const result = { ...(await timing.jsonValue()), scriptBytes };
  await context.close();
  return result;
}

async function main() {
  const app = await startDemoApp();
  const bare = await startBarePage();
  const { cookie } = await signIn(app);
  const cookies = cookie.split('; ').map((pair) => {
    const [name, value] = pair.split('=');
    return { name, value, url: app.base };
  });
  const browser = await launchChromium();

  const cases = {
    'console, sign-in screen': () => load(browser, `${app.base}/console/`),
    'console, signed in (frame and navigation)': () =>
      load(browser, `${app.base}/console/`, cookies),
    'bare page (the floor)': () => load(browser, bare),
  };
  for (const run of Object.values(cases)) await run(); // warm the servers and the browser
  const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let i = 0; i < LOADS; i++) {
    // In turns, so a slow moment of the machine falls on every case alike.
    for (const [name, run] of Object.entries(cases)) samples[name].push(await run());
  }
  const results = Object.entries(samples).map(([name, loads]) => ({
    name,
    loads: loads.length,
    firstScreenMedianMs: Math.round(median(loads.map((l) => l.firstScreen))),
    firstScreenP90Ms: Math.round(
      percentile(
        loads.map((l) => l.firstScreen).sort((a, b) => a - b),
        90,
      ),
    ),
    domContentLoadedMedianMs: Math.round(median(loads.map((l) => l.domContentLoaded))),
    scriptKiB: Math.round(loads[0].scriptBytes / 1024),
  }));
  console.table(results);
  const out = path.join(__dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'console.json'), JSON.stringify({ loads: LOADS, results }, null, 2));
  log(`wrote ${path.relative(process.cwd(), path.join(out, 'console.json'))}`);
}

runBenchmark(main);
