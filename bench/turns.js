'use strict';
/**
 * The per-user turns under load (issue 31), a phase of bench/run.js: one API key at
 * BENCH_CONNECTIONS connections sends a scenario's FETCH (the one marked `turns: true`)
 * for BENCH_DURATION seconds, to the app with STATEMENTS_PER_USER at its default and to
 * the same build with it raised; then once more while a second user sends the same
 * query one at a time. What must hold: no 429s at the default, successful answers/s at
 * least 0.9 of the raised build's, and the second user's p99 under that load within 2 ×
 * its p99 unloaded (measured just before, on the same server, one query at a time).
 */
const autocannon = require('autocannon');
const { log, median, percentile, request, signIn, sleep } = require('./harness');

/** The second user's answers one at a time on the idle server, for its unloaded p99. */
const UNLOADED_REQUESTS = 100;
const SETTLE_MS = 2000;

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

/** The first user's load for BENCH_DURATION seconds; `during` runs while it lasts. */
async function firstUsersLoad(server, keys, body, settings, during = async () => undefined) {
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
  const [result, extra] = await Promise.all([load, during(() => loading)]);
  const tooMany = result.statusCodeStats?.['429']?.count ?? 0;
  return {
    answersPerSecond: result['2xx'] / settings.duration,
    tooMany,
    otherNon2xx: result.non2xx - tooMany,
    ...extra,
  };
}

/**
 * The first user's load alone (its answers a second: the second user would take turns
 * of its own, and it should), then again with the second user sending one query at a
 * time meanwhile (the second user's p99).
 */
async function underLoad(server, keys, body, settings) {
  const alone = await firstUsersLoad(server, keys, body, settings);
  const shared = await firstUsersLoad(server, keys, body, settings, async (loading) => {
    const second = [];
    while (loading()) second.push(await timedFetch(server, keys.second, body));
    return { secondP99Ms: p99(second), secondRequests: second.length };
  });
  return {
    ...alone,
    tooMany: alone.tooMany + shared.tooMany,
    otherNon2xx: alone.otherNon2xx + shared.otherNon2xx,
    secondP99Ms: shared.secondP99Ms,
    secondRequests: shared.secondRequests,
  };
}

/** The second user's p99 one query at a time, on a server under no other load. */
async function unloadedP99(server, apiKey, body) {
  const times = [];
  for (let i = 0; i < UNLOADED_REQUESTS; i++) times.push(await timedFetch(server, apiKey, body));
  return p99(times);
}

/**
 * `start(env)` starts the app with these variables over the bench's; `stop(server)` stops
 * it. Both builds run side by side (one under load at a time), in BENCH_ROUNDS
 * interleaved rounds; each figure is the median of the rounds.
 */
async function measureTurns({ scenario, ctx, start, stop, settings }) {
  const body = typeof scenario.body === 'function' ? scenario.body(ctx) : scenario.body;
  const builds = [
    // The bench's servers run with the limit raised (run.js): unset, the app's default.
    { label: 'default', env: { STATEMENTS_PER_USER: undefined } },
    { label: 'raised', env: { STATEMENTS_PER_USER: '1000' } },
  ];
  const keys = { first: ctx.apiKey };
  const rounds = { default: [], raised: [] };
  try {
    for (const build of builds) build.server = await start(build.env);
    keys.second = await secondUser(builds[0].server, ctx);
    for (const build of builds) {
      for (let i = 0; i < 10; i++) await timedFetch(build.server, keys.second, body); // warm
    }
    for (let round = 0; round < settings.rounds; round++) {
      for (const { label, server } of builds) {
        // Unloaded means after the last load's queries and their backends have settled.
        await sleep(SETTLE_MS);
        const secondUnloadedP99Ms = await unloadedP99(server, keys.second, body);
        const loaded = await underLoad(server, keys, body, settings);
        rounds[label].push({ ...loaded, secondUnloadedP99Ms });
        log(
          `turns, ${label} STATEMENTS_PER_USER: ${loaded.answersPerSecond.toFixed(1)} answers/s, ` +
            `${loaded.tooMany} 429s; second user p99 ${loaded.secondP99Ms.toFixed(1)} ms ` +
            `(unloaded ${secondUnloadedP99Ms.toFixed(1)} ms)`,
        );
      }
    }
  } finally {
    for (const { server } of builds) if (server) await stop(server);
  }
  const figure = (label, name) => median(rounds[label].map((run) => run[name]));
  const runs = Object.fromEntries(
    builds.map(({ label }) => [
      label,
      {
        answersPerSecond: figure(label, 'answersPerSecond'),
        tooMany: Math.max(...rounds[label].map((run) => run.tooMany)),
        otherNon2xx: Math.max(...rounds[label].map((run) => run.otherNon2xx)),
        secondP99Ms: figure(label, 'secondP99Ms'),
        secondUnloadedP99Ms: figure(label, 'secondUnloadedP99Ms'),
      },
    ]),
  );
  return {
    scenario: scenario.name,
    runs,
    rounds,
    answersRatio: median(
      rounds.default.map((run, i) => run.answersPerSecond / rounds.raised[i].answersPerSecond),
    ),
    // Unloaded, one user: the same for both builds, so all rounds of both count.
    secondUserSlowdown:
      runs.default.secondP99Ms /
      median([...rounds.default, ...rounds.raised].map((run) => run.secondUnloadedP99Ms)),
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
      `second user's p99 loaded ÷ unloaded at the default: ${turns.secondUserSlowdown.toFixed(2)} (target ≤ 2); ` +
      'each figure the median of the rounds',
  );
}

module.exports = { measureTurns, reportTurns };
