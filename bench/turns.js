'use strict';
/**
 * The per-user turns under load (issue 31), a phase of bench/run.js: one API key at
 * BENCH_CONNECTIONS connections sends a scenario's FETCH (the one marked `turns: true`)
 * for BENCH_DURATION seconds, first to the app with STATEMENTS_PER_USER at its default,
 * then to the same build with it raised; all the while a second user sends the same
 * query one at a time. What must hold: no 429s at the default, successful answers/s at
 * least 0.9 of the raised build's, and the second user's p99 under that load within 2 ×
 * its p99 unloaded (measured first, on the same server, sequentially).
 */
const autocannon = require('autocannon');
const { log, percentile, request, signIn } = require('./harness');

/** Sequential answers of the second user: every one must be 2xx. */
const UNLOADED_REQUESTS = 50;

/** A user of the admin's organization holding the seeded role `member`, and its API key. */
async function secondUser(server, ctx) {
  const headers = { 'x-api-key': ctx.apiKey };
  const roles = await request(server.base, 'POST', '/rest/fetch', {
    headers: { ...headers, 'content-type': 'text/plain' },
    body: `FETCH role (key) WHERE name = 'member'`,
  });
  const [role] = JSON.parse(roles.text);
  if (!role) throw new Error(`turns: no role "member": ${roles.status} ${roles.text}`);
  const password = 'bench-turns-password-1';
  const created = await request(server.base, 'POST', '/rest/entity/user', {
    headers,
    body: {
      properties: { user_name: 'bench.turns', full_name: 'Bench Turns', password },
      children: { user_user_role: [{ properties: { id_role: role.key } }] },
    },
  });
  if (created.status !== 200) throw new Error(`turns: user: ${created.status} ${created.text}`);
  return (await signIn(server, 'bench.turns', password)).apiKey;
}

/** One FETCH of `apiKey`, timed in ms; throws unless 2xx. */
async function timedFetch(server, apiKey, body) {
  const started = performance.now();
  const response = await request(server.base, 'POST', '/rest/fetch', {
    headers: { 'x-api-key': apiKey, 'content-type': 'text/plain' },
    body,
  });
  if (response.status < 200 || response.status >= 300) {
    throw new Error(`turns: the second user's FETCH: ${response.status} ${response.text}`);
  }
  return performance.now() - started;
}

const p99 = (values) => percentile(Float64Array.from(values).sort(), 99);

/** The first user's load, and the second user's answers sent one at a time meanwhile. */
async function underLoad(server, keys, body, settings) {
  let loading = true;
  const load = new Promise((resolve, reject) =>
    autocannon(
      {
        url: `${server.base}/rest/fetch`,
        method: 'POST',
        headers: { 'x-api-key': keys.first, 'content-type': 'text/plain' },
        body,
        connections: settings.connections,
        duration: settings.duration,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  ).finally(() => (loading = false));
  const second = [];
  while (loading) second.push(await timedFetch(server, keys.second, body));
  const result = await load;
  return {
    answersPerSecond: result['2xx'] / settings.duration,
    tooMany: result.statusCodeStats?.['429']?.count ?? 0,
    otherNon2xx: result.non2xx - (result.statusCodeStats?.['429']?.count ?? 0),
    secondP99Ms: p99(second),
    secondRequests: second.length,
  };
}

/**
 * `start(env)` starts the app with these variables over the bench's; `stop(server)` stops
 * it. Returns both runs and the figures the issue names.
 */
async function measureTurns({ scenario, ctx, start, stop, settings }) {
  const body = typeof scenario.body === 'function' ? scenario.body(ctx) : scenario.body;
  const keys = { first: ctx.apiKey };
  const runs = {};
  for (const [label, perUser] of [
    ['default', undefined],
    ['raised', '1000'],
  ]) {
    const server = await start({ STATEMENTS_PER_USER: perUser });
    try {
      keys.second ??= await secondUser(server, ctx);
      // Warm, then the second user's unloaded time.
      for (let i = 0; i < 10; i++) await timedFetch(server, keys.second, body);
      const unloaded = [];
      for (let i = 0; i < UNLOADED_REQUESTS; i++) {
        unloaded.push(await timedFetch(server, keys.second, body));
      }
      const loaded = await underLoad(server, keys, body, settings);
      runs[label] = { ...loaded, secondUnloadedP99Ms: p99(unloaded) };
      log(
        `turns, STATEMENTS_PER_USER ${perUser ?? 'default'}: ${loaded.answersPerSecond.toFixed(1)} answers/s, ` +
          `${loaded.tooMany} 429s; second user p99 ${loaded.secondP99Ms.toFixed(1)} ms ` +
          `(unloaded ${runs[label].secondUnloadedP99Ms.toFixed(1)} ms)`,
      );
    } finally {
      await stop(server);
    }
  }
  return {
    scenario: scenario.name,
    runs,
    answersRatio: runs.default.answersPerSecond / runs.raised.answersPerSecond,
    secondUserSlowdown: runs.default.secondP99Ms / runs.default.secondUnloadedP99Ms,
  };
}

function reportTurns(turns, table) {
  const { runs } = turns;
  console.log(
    `\nTurns under one user's load (${turns.scenario}): the first user at the connections above,` +
      ' a second user one query at a time\n',
  );
  console.log(
    table([
      [
        'STATEMENTS_PER_USER',
        'answers/s',
        '429s',
        'other non-2xx',
        '2nd user p99 ms',
        'unloaded p99 ms',
      ],
      ...Object.entries(runs).map(([label, run]) => [
        label,
        run.answersPerSecond.toFixed(1),
        run.tooMany,
        run.otherNon2xx,
        run.secondP99Ms.toFixed(1),
        run.secondUnloadedP99Ms.toFixed(1),
      ]),
    ]),
  );
  console.log(
    `default ÷ raised answers/s: ${turns.answersRatio.toFixed(2)} (target ≥ 0.9); ` +
      `second user's p99 loaded ÷ unloaded at the default: ${turns.secondUserSlowdown.toFixed(2)} (target ≤ 2)`,
  );
}

module.exports = { measureTurns, reportTurns };
