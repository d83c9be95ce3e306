'use strict';
/**
 * `node bench/ab.js <checkout>`: the write path of this build (A, dist/) against the build of
 * another checkout (B, <checkout>/dist, e.g. a worktree of the commit before a change: `git
 * worktree add /tmp/before <commit>`, node_modules linked, `npm run build` there), in one
 * run, so that a change names what it costs a write.
 *
 * Each app on a fresh database of the same PostgreSQL server, with the demo data and the
 * same settings; per round, A then B: accounts created, then accounts' e-mail updated
 * (random keys among accounts made beforehand), BENCH_DURATION s at BENCH_CONNECTIONS each.
 * Reported: each build's median req/s and A ÷ B per round and as their median.
 *
 * Env: BENCH_DATABASE_URL (else the embedded server), BENCH_DURATION (10),
 * BENCH_CONNECTIONS (10), BENCH_ROUNDS (5), BENCH_A_ENV / BENCH_B_ENV (extra settings of
 * one side, as JSON).
 */
const path = require('node:path');
const autocannon = require('autocannon');
const {
  createDatabase,
  demoAppEnv,
  log,
  median,
  numberFromEnv: number,
  request,
  runBenchmark,
  seededRandom,
  signIn,
  startServer,
} = require('./harness');

const SETTINGS = {
  duration: number('BENCH_DURATION', 10),
  connections: number('BENCH_CONNECTIONS', 10),
  rounds: number('BENCH_ROUNDS', 5),
};
/** Accounts made before the rounds, whose e-mail the updates write. */
const UPDATED_ACCOUNTS = 200;

async function startApp(label, root, extra) {
  const app = await startServer(label, path.join(root, 'dist/src/main.js'), {
    ...(await demoAppEnv(await createDatabase())),
    ...extra,
  });
  const { apiKey } = await signIn(app);
  const keys = [];
  for (let i = 0; i < UPDATED_ACCOUNTS; i++) {
    const made = await request(app.base, 'POST', '/rest/entity/account', {
      headers: { 'x-api-key': apiKey },
      body: { entity_name: 'account', properties: { name: `A/B ${i}` } },
    });
    if (made.status !== 200) throw new Error(`${label}: account: ${made.status} ${made.text}`);
    keys.push(JSON.parse(made.text).key);
  }
  return { app, apiKey, keys };
}

const SCENARIOS = {
  create: ({ app, apiKey }) => ({
    url: `${app.base}/rest/entity/account`,
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ entity_name: 'account', properties: { name: 'A/B created' } }),
  }),
  update: ({ app, apiKey, keys }) => {
    const random = seededRandom('ab update');
    let n = 0;
    return {
      url: app.base,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (defaults) => {
            const key = keys[Math.floor(random() * keys.length)];
            return {
              ...defaults,
              method: 'POST',
              path: `/rest/entity/account/${key}`,
              body: JSON.stringify({
                entity_name: 'account',
                properties: { email: `ab${n++}@example.com` },
              }),
            };
          },
        },
      ],
    };
  },
};

function load(options) {
  return new Promise((resolve, reject) => {
    autocannon(
      { ...options, connections: SETTINGS.connections, duration: SETTINGS.duration },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx > 0) return reject(new Error(`${result.non2xx} answers not 2xx`));
        resolve(result.requests.average);
      },
    );
  });
}

async function main() {
  const other = process.argv[2];
  if (!other) throw new Error('Usage: node bench/ab.js <checkout of the other build>');
  const envOf = (name) => JSON.parse(process.env[name] ?? '{}');
  const a = await startApp('A (this build)', path.resolve(__dirname, '..'), envOf('BENCH_A_ENV'));
  const b = await startApp(`B (${other})`, path.resolve(other), envOf('BENCH_B_ENV'));
  const results = {};
  for (const name of Object.keys(SCENARIOS)) {
    results[name] = { a: [], b: [] };
    for (let round = 1; round <= SETTINGS.rounds; round++) {
      const aRate = await load(SCENARIOS[name](a));
      const bRate = await load(SCENARIOS[name](b));
      results[name].a.push(aRate);
      results[name].b.push(bRate);
      log(
        `${name} round ${round}: A ${aRate} req/s, B ${bRate} req/s, ${(aRate / bRate).toFixed(2)}`,
      );
    }
  }
  console.log(
    `\nA (this build) ÷ B (${other}), ${SETTINGS.duration} s at ${SETTINGS.connections} connections:`,
  );
  for (const [name, { a: as, b: bs }] of Object.entries(results)) {
    const ratios = as.map((rate, i) => rate / bs[i]);
    console.log(
      `  ${name}: A ${median(as).toFixed(0)} req/s, B ${median(bs).toFixed(0)} req/s, ` +
        `A ÷ B median ${median(ratios).toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
    );
  }
}

runBenchmark(main);
