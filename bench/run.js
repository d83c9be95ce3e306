'use strict';
/**
 * `npm run bench`: the app (built, dist/src/main.js) against a bare node:http + pg
 * baseline (bench/baseline.js) doing the same SQL, and against the plain server
 * (bench/plain.js) doing only what the answers need, on a fresh database.
 *
 *   1. CREATE DATABASE atrium_bench_<unique> on the embedded PostgreSQL server (started
 *      from the build as `npm start` runs it), or on the server of BENCH_DATABASE_URL
 *   2. start the app on it once per HTTP platform (express and fastify, or HTTP_PLATFORM's
 *      list), log in as admin, create an API key; start the baseline
 *   3. per scenario (bench/scenarios.js): warm up, then autocannon against each app, then
 *      against the baseline, then the plain server, one at a time (never two under load
 *      together); app ÷ baseline prices the framework, app ÷ plain everything the app adds
 *   4. right after its rounds, the scenario marked `turns` once more, as one user's load
 *      with the per-user turns at their default and raised, a second user querying
 *      meanwhile (bench/turns.js)
 *   5. statements per request: the app, the baseline and the plain server restarted
 *      behind a counting PostgreSQL proxy (bench/pg-proxy.js), N sequential requests per
 *      scenario; transactions are cross-checked with pg_stat_database.xact_commit
 *      (backends terminated to flush it)
 *   6. table on stdout, JSON in bench/results/latest.json; children stopped and the
 *      database dropped, also on failure and Ctrl-C
 *
 * Scenarios marked `writes` are also run, in each round, on the first platform's app
 * with AUDIT_LOG=false: the change log's price on the write path (issue 32).
 *
 * BENCH_DATA=large (issue 19): the app starts without the demo seed, bench/large-data.js
 * loads 10,000 accounts, 1,000 products, 100,000 invoices and 500,000 lines once the
 * admin has signed in, and the scenarios of bench/scenarios-large.js run on them (random
 * keys per request) against the baseline's best hand-written SQL (BASELINE_SQL=best).
 * Each server's peak RSS under load is reported in either mode.
 *
 * Env: BENCH_DATABASE_URL, BENCH_DURATION (s, 10), BENCH_CONNECTIONS (10),
 * BENCH_WARMUP (s, 3), BENCH_COUNT_REQUESTS (200), BENCH_ROUNDS (3: app and baseline take
 * turns, and each figure is the median of the rounds, so one slow moment of a shared
 * machine does not decide a ratio),
 * BENCH_DATA (large, or unset for the default scenarios on the demo seed),
 * BENCH_STATEMENT_TIMES=1 (the embedded server with pg_stat_statements: PostgreSQL's own
 * executing and planning time per answer), BENCH_ONLY (run the scenarios whose name
 * contains this text), HTTP_PLATFORM (the
 * platforms to run the app on, comma-separated: express,fastify). Statements are counted
 * on the first platform only: the SQL does not depend on it.
 */
const { mkdirSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { LISTENER, PgCountingProxy } = require('./pg-proxy');
const { loadLargeData } = require('./large-data');
const { measureTurns, reportTurns } = require('./turns');
const {
  ADMIN_PASSWORD,
  createDatabase,
  databaseUrl,
  log,
  median,
  onCleanup,
  percentile,
  request,
  runBenchmark,
  sampleCpu,
  sampleRss,
  seededRandom,
  signIn,
  sleep,
  startServer,
  stopServer,
  numberFromEnv: number,
} = require('./harness');

const env = process.env;
if (env.BENCH_DATA && env.BENCH_DATA !== 'large') {
  throw new Error(`BENCH_DATA=${env.BENCH_DATA}: only "large" (or nothing) is known`);
}
const LARGE = env.BENCH_DATA === 'large';
const allScenarios = LARGE ? require('./scenarios-large') : require('./scenarios');
/** Varied requests (a scenario's `vary`) checked one by one, app against baseline. */
const VARIED_CHECKS = 10;
const SETTINGS = {
  duration: number('BENCH_DURATION', 10),
  connections: number('BENCH_CONNECTIONS', 10),
  warmup: number('BENCH_WARMUP', 3),
  countRequests: number('BENCH_COUNT_REQUESTS', 200),
  rounds: number('BENCH_ROUNDS', 3),
  platforms: (env.HTTP_PLATFORM ?? 'express,fastify').split(',').map((p) => p.trim()),
};
/**
 * Everything both servers read, pinned so a developer's .env cannot skew the comparison
 * (the app loads .env but never overrides variables already set).
 */
const SERVER_ENV = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  ADMIN_PASSWORD,
  DATABASE_POOL_SIZE: String(Math.min(10, 2 * os.availableParallelism() + 1)), // the app's default
  SERVER_NAME: 'Atrium',
  AUTH_STRATEGIES: 'api-key,session,refresh',
  SESSION_IDLE_MINUTES: '30',
  SESSION_ABSOLUTE_HOURS: '12',
  SESSION_ROTATE_MINUTES: '15',
  API_KEY_CACHE_SECONDS: '5',
  // Every connection of the load is the same user, as no real client is: the per-user
  // share of FETCH and workflow turns (2) would time the share, not the app (the turns
  // phase, bench/turns.js, times the share).
  STATEMENTS_PER_USER: '1000',
  TRUST_PROXY: '',
  NODE_ENV: 'production',
  // The large data set is loaded instead of the demo seed (a few hundred rows, and users
  // and units of its own), so its answers are the generator's alone.
  ...(LARGE ? { DEMO_DATA: 'false' } : {}),
};
/** What only the baseline reads: whether it copies the app's SQL or writes its own. */
const BASELINE_ENV = { BASELINE_SQL: LARGE ? 'best' : 'app' };

let databaseName;
/** The admin connection (for pg_stat_database) and the counting proxy, set by main(). */
let admin;
/** Whether pg_stat_statements times each run (BENCH_STATEMENT_TIMES=1), set by main(). */
let statementTimes = false;
let proxy;

/** The variables set: an undefined one is left out of the child's environment. */
const withoutUnset = (variables) =>
  Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== undefined));

const resolve = (value, ctx) => (typeof value === 'function' ? value(ctx) : value);

/**
 * A scenario's request; with `varied` ({random, n}), one of a varied scenario's requests,
 * its path or body from `vary`.
 */
function requestOf(scenario, ctx, varied) {
  const parts = varied && scenario.vary ? scenario.vary(ctx, varied.random, varied.n) : {};
  const headers = { ...(resolve(scenario.headers, ctx) ?? {}) };
  let body = 'body' in parts ? parts.body : resolve(scenario.body, ctx);
  if (body !== undefined && typeof body !== 'string') {
    body = JSON.stringify(body);
    headers['content-type'] ??= 'application/json';
  }
  const urlPath = 'path' in parts ? parts.path : resolve(scenario.path, ctx);
  return { method: scenario.method, path: urlPath, headers, body };
}

/** A varied scenario's requests, one after another, from a seed: the same in every run. */
function variedRequests(scenario, ctx, seed) {
  const random = seededRandom(`${scenario.name} ${seed}`);
  let n = 0;
  return () => requestOf(scenario, ctx, { random, n: n++ });
}

// ---------------------------------------------------------------------------- phases

/**
 * One request per scenario to each app and the baseline (a varied scenario: VARIED_CHECKS
 * of its requests, one by one): both must answer 2xx, and the same body (or, with
 * sameBody: false, bodies that pass the scenario's verify), and the same values of the
 * scenario's sameHeaders. Scenario by scenario, every app in turn, so that a writing
 * scenario's checks do not move what an earlier scenario's expected body was taken from.
 */
async function checkResponses(scenarios, ctx, apps, baseline, plain) {
  for (const scenario of scenarios) {
    if (scenario.vary && scenario.sameBody === false && !scenario.verify) {
      throw new Error(`${scenario.name}: a varied scenario with sameBody: false needs verify`);
    }
    const next = variedRequests(scenario, ctx, 'check');
    for (const app of apps) {
      for (let i = 0; i < (scenario.vary ? VARIED_CHECKS : 1); i++) {
        const req = next();
        await checkResponse(scenario, req, app, baseline);
        if (scenario.plain !== false) await checkPlain(scenario, req, app, plain);
      }
    }
  }
}

/**
 * The plain server's answer: 2xx, and the app's very bytes where the scenario's answer
 * is one body (else the scenario's verify), so that app ÷ plain compares equal work.
 */
async function checkPlain(scenario, req, app, plain) {
  const [a, p] = [
    await request(app.base, req.method, req.path, req),
    await request(plain.base, req.method, req.path, req),
  ];
  if (p.status < 200 || p.status >= 300) {
    throw new Error(`${scenario.name}: plain answered ${p.status} ${p.text}`);
  }
  const verify = verifierOf(scenario, 'plain');
  if (scenario.sameBody !== false && a.text !== p.text) {
    throw new Error(
      `${scenario.name} (${req.method} ${req.path}): the plain server's body differs from the app's\n  app:   ${a.text}\n  plain: ${p.text}`,
    );
  }
  if (verify && !verify(p.text)) {
    throw new Error(`${scenario.name}: plain's body fails verify: ${p.text}`);
  }
}

async function checkResponse(scenario, req, app, baseline) {
  const [a, b] = [
    await request(app.base, req.method, req.path, req),
    await request(baseline.base, req.method, req.path, req),
  ];
  for (const [label, response] of [
    ['app', a],
    ['baseline', b],
  ]) {
    if (response.status < 200 || response.status >= 300) {
      throw new Error(`${scenario.name}: ${label} answered ${response.status} ${response.text}`);
    }
  }
  for (const name of scenario.sameHeaders ?? []) {
    const [fromApp, fromBaseline] = [a.headers.get(name), b.headers.get(name)];
    if (fromApp === null || fromApp !== fromBaseline) {
      throw new Error(
        `${scenario.name}: header ${name} differs\n  app:      ${fromApp}\n  baseline: ${fromBaseline}`,
      );
    }
  }
  if (scenario.verify) {
    for (const [label, response] of [
      ['app', a],
      ['baseline', b],
    ]) {
      if (!verifierOf(scenario, label)(response.text)) {
        throw new Error(`${scenario.name}: ${label}'s body fails verify: ${response.text}`);
      }
    }
  }
  if (scenario.sameBody !== false) {
    if (a.text !== b.text) {
      throw new Error(
        `${scenario.name} (${req.method} ${req.path}): the baseline's body differs from the app's\n  app:      ${a.text}\n  baseline: ${b.text}`,
      );
    }
    // Under load, a varied scenario without verify must answer one of the checked bodies.
    if (scenario.vary) (scenario.expectBodies ??= new Set()).add(a.text);
    else scenario.expectBody = a.text;
  }
}

/**
 * One autocannon run. Latencies are also collected from its `response` events, in
 * fractional milliseconds: autocannon's own histogram truncates to whole milliseconds,
 * too coarse for sub-millisecond answers.
 */
/**
 * The scenario's body check for a server: `verifyBaseline` (when given) for the baseline;
 * for a varied scenario without verify, one of the bodies its checks saw.
 */
function verifierOf(scenario, label) {
  const forBaseline = label.startsWith('baseline') && scenario.verifyBaseline;
  const { expectBodies } = scenario;
  return forBaseline || scenario.verify || (expectBodies && ((text) => expectBodies.has(text)));
}

function cannon(server, scenario, ctx, seconds, seed) {
  const { expectBody } = scenario;
  const verify = verifierOf(scenario, server.label);
  const req = requestOf(scenario, ctx);
  // A varied scenario builds each request anew (autocannon cannot expect one body then).
  const next = scenario.vary && variedRequests(scenario, ctx, seed);
  return new Promise((resolvePromise, reject) => {
    const latencies = [];
    const instance = autocannon(
      {
        url: server.base + req.path,
        method: req.method,
        headers: req.headers,
        body: req.body,
        connections: SETTINGS.connections,
        duration: seconds,
        ...(next
          ? { requests: [{ setupRequest: (defaults) => ({ ...defaults, ...next() }) }] }
          : {}),
        ...(verify ? { verifyBody: verify } : { expectBody }),
      },
      (error, result) => (error ? reject(error) : resolvePromise({ result, latencies })),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/** The run of median throughput (its latencies with it); the lower middle of an even count. */
function medianRun(runs) {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Warm-up, then the measured run; the server's RSS is sampled all along (every 500 ms).
 * The seed of a varied scenario's keys is the round's: the app and the baseline are asked
 * for the same rows.
 */
async function load(server, scenario, ctx, round) {
  const stopSampling = sampleRss(server.child.pid);
  let run;
  let rssMaxKiB;
  let cpu;
  let postgresTimes;
  try {
    if (SETTINGS.warmup > 0) {
      await cannon(server, scenario, ctx, SETTINGS.warmup, `warm-up ${round}`);
    }
    const stopCpu = sampleCpu(server.child.pid);
    if (statementTimes) await admin.query('SELECT pg_stat_statements_reset()');
    run = await cannon(server, scenario, ctx, SETTINGS.duration, `round ${round}`);
    cpu = stopCpu();
    if (statementTimes) postgresTimes = await statementTimesOf(databaseName);
  } finally {
    rssMaxKiB = stopSampling();
  }
  const { result, latencies } = run;
  const sorted = Float64Array.from(latencies).sort();
  const measured = {
    requestsPerSecond: result.requests.average,
    latencyMs: {
      average: Math.round((sorted.reduce((sum, v) => sum + v, 0) / sorted.length) * 100) / 100,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: percentile(sorted, 100),
    },
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
    rssMaxKiB,
    // Where the time goes: the server's own CPU and PostgreSQL's, per answer.
    cpuMsPerRequest: cpu && {
      server: cpu.serverMs / result.requests.total,
      postgres: cpu.postgresMs / result.requests.total,
    },
    // PostgreSQL's own account (BENCH_STATEMENT_TIMES=1): executing and planning.
    postgresMsPerRequest: postgresTimes && {
      execution: postgresTimes.executionMs / result.requests.total,
      planning: postgresTimes.planningMs / result.requests.total,
      statements: postgresTimes.calls / result.requests.total,
    },
  };
  const bad = measured.non2xx + measured.errors + measured.timeouts + measured.mismatches;
  if (bad > 0) {
    throw new Error(
      `${scenario.name} on ${server.label}: ${measured.non2xx} non-2xx, ${measured.errors} errors, ` +
        `${measured.timeouts} timeouts, ${measured.mismatches} unexpected bodies`,
    );
  }
  log(
    `${scenario.name} on ${server.label}: ${measured.requestsPerSecond.toFixed(0)} req/s, ` +
      `p50 ${measured.latencyMs.p50} ms, p99 ${measured.latencyMs.p99} ms, ` +
      `RSS up to ${mib(measured.rssMaxKiB)} MiB`,
  );
  return measured;
}

/** pg_stat_statements' totals for the bench database since its last reset. */
async function statementTimesOf(name) {
  const { rows } = await admin.query(
    `SELECT coalesce(sum(s.calls), 0)::float8 AS calls,
            coalesce(sum(s.total_exec_time), 0)::float8 AS "executionMs",
            coalesce(sum(s.total_plan_time), 0)::float8 AS "planningMs"
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = $1`,
    [name],
  );
  return rows[0];
}

/**
 * The app's connection listening for access changes (src/database/postgres-listener.ts) is
 * left alone: it runs no request's statements, and while it reconnects the app caches no
 * access scope, which would count statements a running server does not send.
 */
const POOL_BACKENDS = `datname = $1 AND pid <> pg_backend_pid()
  AND application_name <> '${LISTENER}'`;

/**
 * Transactions committed or rolled back in the bench database so far. Backends report
 * their statistics lazily (an idle one may sit on them indefinitely), but always on exit:
 * so the pools' backends are terminated first. The servers' pools just reconnect;
 * each new connection costs one transaction of its own, which the caller subtracts.
 */
async function committedTransactions() {
  await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${POOL_BACKENDS}`,
    [databaseName],
  );
  for (let waited = 0; ; waited += 50) {
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${POOL_BACKENDS}`,
      [databaseName],
    );
    if (rows[0].n === 0) {
      // The servers' pools learn of their terminated connections a moment later: a request
      // sent before would be handed one of them.
      await sleep(250);
      break;
    }
    if (waited > 10_000) throw new Error('the bench database still has backends after 10 s');
    await sleep(50);
  }
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await admin.query(
    'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
    [databaseName],
  );
  return Number(rows[0].n);
}

/**
 * N sequential requests through the counting proxy: statements and round trips each. A
 * varied scenario's requests come from one seed, the same for the app and the baseline.
 */
async function countStatements(server, scenario, ctx) {
  const next = variedRequests(scenario, ctx, 'count');
  const n = SETTINGS.countRequests;
  const before = await committedTransactions();
  proxy.reset();
  const compileMs = [];
  for (let i = 0; i < n; i += 1) {
    const req = next();
    const response = await request(server.base, req.method, req.path, req);
    const timing = /compile;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
    if (timing) compileMs.push(Number(timing[1]));
    if (response.status < 200 || response.status >= 300) {
      throw new Error(
        `${scenario.name} on ${server.label}: ${response.status} ${response.text}\n` +
          `its last log lines:\n${server.output.slice(-4000)}`,
      );
    }
    const verify = verifierOf(scenario, server.label);
    if (verify && !verify(response.text)) {
      throw new Error(`${scenario.name} on ${server.label}: unexpected body ${response.text}`);
    }
  }
  const counted = proxy.snapshot();
  const transactions = (await committedTransactions()) - before - counted.connections;
  const result = {
    requests: n,
    statements: counted.statements,
    statementsPerRequest: counted.statements / n,
    roundTripsPerRequest: counted.roundTrips / n,
    transactions,
    transactionsPerRequest: transactions / n,
    newConnections: counted.connections,
    texts: counted.texts,
    // The app's own Server-Timing: reading and compiling the query (FETCH), per request.
    compileMsP50: compileMs.length
      ? percentile(
          compileMs.sort((a, b) => a - b),
          50,
        )
      : undefined,
  };
  log(
    `${scenario.name} on ${server.label}: ${result.statementsPerRequest} statements/request, ` +
      `${result.roundTripsPerRequest} round trips/request, ` +
      `${result.transactionsPerRequest} transactions/request`,
  );
  return result;
}

// ---------------------------------------------------------------------------- report

const mib = (kib) => (kib === undefined ? '-' : (kib / 1024).toFixed(0));

function table(rows) {
  const widths = rows[0].map((_, column) =>
    Math.max(...rows.map((row) => String(row[column]).length)),
  );
  return rows
    .map((row, index) => {
      const line = row
        .map((cell, column) =>
          column === 0
            ? String(cell).padEnd(widths[column])
            : String(cell).padStart(widths[column]),
        )
        .join('  ');
      return index === 0 ? `${line}\n${'-'.repeat(line.length)}` : line;
    })
    .join('\n');
}

function report(results) {
  const fmt = (value) => Math.round(value).toLocaleString('en-US');
  const ms = (value) => `${value}`;
  console.log(
    `\nThroughput: ${SETTINGS.connections} connections, ${SETTINGS.duration} s per run after ` +
      `${SETTINGS.warmup} s warm-up, median of ${SETTINGS.rounds} rounds (latency in ms)\n`,
  );
  const platforms = SETTINGS.platforms;
  console.log(
    table([
      [
        'scenario',
        ...platforms.flatMap((p) => [`${p} req/s`, 'p50', 'p99', 'RSS MiB']),
        'baseline req/s',
        'p50',
        'p99',
        'RSS MiB',
        'plain req/s',
        'p50',
        'p99',
        'RSS MiB',
        ...platforms.flatMap((p) => [`${p}/baseline`, `${p}/plain`]),
      ],
      ...results.scenarios.map((s) => [
        s.name,
        ...platforms.flatMap((p) => {
          const { app } = s.platforms[p];
          return [
            fmt(app.requestsPerSecond),
            ms(app.latencyMs.p50),
            ms(app.latencyMs.p99),
            mib(app.rssMaxKiB),
          ];
        }),
        fmt(s.baseline.requestsPerSecond),
        ms(s.baseline.latencyMs.p50),
        ms(s.baseline.latencyMs.p99),
        mib(s.baseline.rssMaxKiB),
        ...(s.plain
          ? [
              fmt(s.plain.requestsPerSecond),
              ms(s.plain.latencyMs.p50),
              ms(s.plain.latencyMs.p99),
              mib(s.plain.rssMaxKiB),
            ]
          : ['-', '-', '-', '-']),
        ...platforms.flatMap((p) => [
          s.platforms[p].ratio.toFixed(2),
          s.platforms[p].plainRatio?.toFixed(2) ?? '-',
        ]),
      ]),
    ]),
  );
  console.log(
    '(RSS: the largest resident set size of the server process, sampled every 500 ms over\n' +
      ' the warm-up and the run, of all rounds)',
  );
  const logged = results.scenarios.filter((s) => s.changeLog);
  if (logged.length > 0) {
    console.log(
      `\nThe change log's price: the app on ${platforms[0]} ÷ the same app with AUDIT_LOG=false, ` +
        'loaded in turn in each round\n',
    );
    console.log(
      table([
        ['scenario', 'log on req/s', 'log off req/s', 'on/off', 'each round'],
        ...logged.map((s) => [
          s.name,
          fmt(s.platforms[platforms[0]].app.requestsPerSecond),
          fmt(s.changeLog.logOff.requestsPerSecond),
          s.changeLog.ratio.toFixed(2),
          s.changeLog.rounds.map((r) => r.toFixed(2)).join(' '),
        ]),
      ]),
    );
  }
  /** A pair of figures per server (each app, the baseline, the plain server), per scenario. */
  const perServer = (title, [first, second], pairOf) => {
    console.log(`\n${title}\n`);
    const pair = (run) => {
      const figures = run && pairOf(run);
      return figures ? figures.map((ms) => ms.toFixed(3)) : ['-', '-'];
    };
    console.log(
      table([
        [
          'scenario',
          ...[...platforms, 'baseline', 'plain'].flatMap((label) => [`${label} ${first}`, second]),
        ],
        ...results.scenarios.map((s) => [
          s.name,
          ...platforms.flatMap((p) => pair(s.platforms[p].app)),
          ...pair(s.baseline),
          ...pair(s.plain),
        ]),
      ]),
    );
  };
  perServer(
    'CPU per answer (ms, from /proc, the median run): the server process, and PostgreSQL',
    ['node', 'postgres'],
    ({ cpuMsPerRequest: cpu }) => cpu && [cpu.server, cpu.postgres],
  );
  if (statementTimes) {
    perServer(
      "PostgreSQL's own time per answer (ms, pg_stat_statements, the median run): executing, planning",
      ['exec', 'plan'],
      ({ postgresMsPerRequest: times }) => times && [times.execution, times.planning],
    );
  }
  console.log("\nEvery round's ratio, per platform, to the baseline and to the plain server\n");
  const each = (ratios) => ratios.map((ratio) => ratio.toFixed(2)).join(' ') || '-';
  console.log(
    table([
      ['scenario', ...platforms.flatMap((p) => [`${p}/baseline`, `${p}/plain`])],
      ...results.scenarios.map((s) => [
        s.name,
        ...platforms.flatMap((p) => [
          each(s.platforms[p].rounds),
          each(s.platforms[p].plainRounds),
        ]),
      ]),
    ]),
  );
  console.log(
    `\nDatabase work: ${SETTINGS.countRequests} sequential requests through a counting proxy ` +
      `(the app on ${platforms[0]})\n`,
  );
  const per = (value) => (value === undefined ? '-' : value.toFixed(3));
  const xacts = (counted) =>
    `${per(counted.transactionsPerRequest)} (${counted.transactions}/${counted.requests})`;
  console.log(
    table([
      [
        'scenario',
        'app stmts/req',
        'round trips/req',
        'xacts/req',
        'baseline stmts/req',
        'xacts/req',
        'plain stmts/req',
        'xacts/req',
      ],
      ...results.scenarios.map((s) => [
        s.name,
        per(s.statements.app.statementsPerRequest),
        per(s.statements.app.roundTripsPerRequest),
        xacts(s.statements.app),
        per(s.statements.baseline.statementsPerRequest),
        xacts(s.statements.baseline),
        ...(s.statements.plain
          ? [per(s.statements.plain.statementsPerRequest), xacts(s.statements.plain)]
          : ['-', '-']),
      ]),
    ]),
  );
  console.log(
    '(stmts and round trips: counted on the wire by the proxy; xacts: from\n' +
      ' pg_stat_database.xact_commit + xact_rollback, less one per connection the pool opened)',
  );
  const compiled = results.scenarios.filter((s) => s.statements.app.compileMsP50 !== undefined);
  if (compiled.length > 0) {
    console.log(
      "\nCompile time (Server-Timing, sequential requests) against the app's p50 under load\n",
    );
    console.log(
      table([
        ['scenario', 'compile p50 ms', 'app p50 ms', 'share'],
        ...compiled.map((s) => {
          // The first platform's, which the statements are counted on.
          const { p50 } = s.platforms[SETTINGS.platforms[0]].app.latencyMs;
          return [
            s.name,
            s.statements.app.compileMsP50.toFixed(3),
            ms(p50),
            `${((100 * s.statements.app.compileMsP50) / p50).toFixed(2)}%`,
          ];
        }),
      ]),
    );
  }
  if (results.turns) reportTurns(results.turns, table);
  const handWritten = (s) => s.baselineSql === 'hand-written';
  for (const s of results.scenarios.filter((scenario) => !scenario.sameSql)) {
    console.log(
      handWritten(s)
        ? `\n${s.name}: the baseline runs the best hand-written SQL for the same answer, not` +
            ` the app's (BASELINE_SQL=best); both servers' statements are below.`
        : `\nWARNING: ${s.name}: the baseline's SQL differs from the app's; bring bench/baseline.js` +
            ` in step with the app (both lists are in the JSON).`,
    );
  }
  const statements = (s, label) => {
    const counted = s.statements[label];
    console.log(`\n${s.name}: statements the ${label} sent (${counted.requests} requests)`);
    if (counted.texts.length === 0) console.log('  (none)');
    for (const { count, text } of counted.texts) {
      const line = text.replace(/\s+/g, ' ');
      console.log(
        `  ${String(count).padStart(5)} x  ${line.length > 160 ? `${line.slice(0, 157)}...` : line}`,
      );
    }
  };
  for (const s of results.scenarios) {
    statements(s, 'app');
    if (handWritten(s)) statements(s, 'baseline');
  }
}

// ---------------------------------------------------------------------------- main

/**
 * BENCH_DATA=large: the large data set loaded into the bench database (after the admin's
 * first boot and sign-in), and the keys the varied scenarios pick from (ctx.large).
 */
async function loadLarge(dbUrl, ctx) {
  const client = new Client({ connectionString: dbUrl });
  await client.connect();
  try {
    log('loading the large data set (bench/large-data.js)');
    const loaded = await loadLargeData(client, { log });
    log(`large data set loaded in ${(loaded.ms / 1000).toFixed(1)} s`);
    const keys = async (table) => {
      const { rows } = await client.query(
        `SELECT key FROM ${table} WHERE id_organization = $1 ORDER BY key`,
        [loaded.organizationKey],
      );
      return rows.map((row) => Number(row.key));
    };
    ctx.large = {
      invoiceKeys: await keys('invoice'),
      accountKeys: await keys('account'),
      productKeys: await keys('product'),
    };
    return { set: 'large', loadMs: Math.round(loaded.ms), counts: loaded.counts };
  } finally {
    await client.end();
  }
}

async function main() {
  const scenarios = allScenarios.filter((s) => !env.BENCH_ONLY || s.name.includes(env.BENCH_ONLY));
  if (scenarios.length === 0) throw new Error(`no scenario matches BENCH_ONLY=${env.BENCH_ONLY}`);
  const results = {
    startedAt: new Date().toISOString(),
    settings: {
      data: LARGE ? 'large' : 'default',
      duration: SETTINGS.duration,
      connections: SETTINGS.connections,
      warmup: SETTINGS.warmup,
      countRequests: SETTINGS.countRequests,
      rounds: SETTINGS.rounds,
      platforms: SETTINGS.platforms,
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
    },
    scenarios: [],
  };
  const database = await createDatabase();
  databaseName = database.name;
  admin = database.admin;
  statementTimes = database.statementTimes;
  results.settings.postgres = `${database.version} (${database.kind})`;
  const dbUrl = await databaseUrl(databaseName);
  const serverEnv = (url) => ({ ...SERVER_ENV, DATABASE_URL: url });

  const apps = [];
  for (const platform of SETTINGS.platforms) {
    const server = await startServer(`app (${platform})`, 'dist/src/main.js', {
      ...serverEnv(dbUrl),
      HTTP_PLATFORM: platform,
    });
    log(`app on ${platform} up on ${server.base}`);
    apps.push({ platform, server });
  }
  // The change log's price (issue 32): the first platform again, writing no change log,
  // loaded beside the app on the scenarios that write.
  const logOff = scenarios.some((scenario) => scenario.writes)
    ? await startServer(`app (${SETTINGS.platforms[0]}, AUDIT_LOG=false)`, 'dist/src/main.js', {
        ...serverEnv(dbUrl),
        HTTP_PLATFORM: SETTINGS.platforms[0],
        AUDIT_LOG: 'false',
      })
    : undefined;
  const ctx = await signIn(apps[0].server);
  if (LARGE) results.data = await loadLarge(dbUrl, ctx);
  for (const scenario of scenarios) if (scenario.setup) await scenario.setup(ctx);
  const baselineEnv = (url) => ({ ...serverEnv(url), ...BASELINE_ENV });
  const baseline = await startServer(
    'baseline',
    path.join(__dirname, 'baseline.js'),
    baselineEnv(dbUrl),
  );
  log(`baseline up on ${baseline.base}`);
  const plain = await startServer('plain', path.join(__dirname, 'plain.js'), serverEnv(dbUrl));
  log(`plain server up on ${plain.base}`);
  await checkResponses(
    scenarios,
    ctx,
    apps.map((a) => a.server),
    baseline,
    plain,
  );

  // The median run's figures, with the largest RSS of all the rounds.
  const summary = (runs) => ({
    ...medianRun(runs),
    rssMaxKiB: runs.some((r) => r.rssMaxKiB !== undefined)
      ? Math.max(...runs.map((r) => r.rssMaxKiB ?? 0))
      : undefined,
  });
  for (const scenario of scenarios) {
    const rounds = [];
    for (let round = 0; round < SETTINGS.rounds; round++) {
      const runs = {};
      for (const { platform, server } of apps) {
        runs[platform] = await load(server, scenario, ctx, round);
      }
      rounds.push({
        apps: runs,
        logOff: scenario.writes && logOff ? await load(logOff, scenario, ctx, round) : undefined,
        baseline: await load(baseline, scenario, ctx, round),
        plain: scenario.plain === false ? undefined : await load(plain, scenario, ctx, round),
      });
    }
    const platforms = {};
    for (const { platform } of apps) {
      const ratios = rounds.map(
        (r) => r.apps[platform].requestsPerSecond / r.baseline.requestsPerSecond,
      );
      const plainRatios = rounds
        .filter((r) => r.plain)
        .map((r) => r.apps[platform].requestsPerSecond / r.plain.requestsPerSecond);
      platforms[platform] = {
        app: summary(rounds.map((r) => r.apps[platform])),
        ratio: median(ratios),
        rounds: ratios,
        plainRatio: plainRatios.length ? median(plainRatios) : undefined,
        plainRounds: plainRatios,
      };
    }
    // Before a later scenario's writes move what the query reads.
    if (scenario.turns) {
      results.turns = await measureTurns({
        scenario,
        ctx,
        settings: SETTINGS,
        start: (extra) =>
          startServer(
            'app (turns)',
            'dist/src/main.js',
            withoutUnset({
              ...serverEnv(dbUrl),
              HTTP_PLATFORM: apps[0].platform,
              ...extra,
            }),
          ),
        stop: stopServer,
      });
    }
    const logRatios = rounds
      .filter((r) => r.logOff)
      .map((r) => r.apps[apps[0].platform].requestsPerSecond / r.logOff.requestsPerSecond);
    results.scenarios.push({
      name: scenario.name,
      changeLog: logRatios.length
        ? {
            logOff: summary(rounds.map((r) => r.logOff)),
            ratio: median(logRatios),
            rounds: logRatios,
          }
        : undefined,
      request: { method: scenario.method, path: resolve(scenario.path, ctx) },
      baselineSql: scenario.baselineSql ?? 'same',
      platforms,
      baseline: summary(rounds.map((r) => r.baseline)),
      plain: scenario.plain === false ? undefined : summary(rounds.map((r) => r.plain)),
    });
  }
  for (const { server } of apps) await stopServer(server);
  if (logOff) await stopServer(logOff);
  await stopServer(baseline);
  await stopServer(plain);

  // Statements per request: each server again, now behind the counting proxy.
  proxy = new PgCountingProxy(database.target);
  const proxyPort = await proxy.listen();
  onCleanup(() => proxy.close());
  const proxiedUrl = await databaseUrl(databaseName, `127.0.0.1:${proxyPort}`);
  for (const [label, script, env] of [
    ['app', 'dist/src/main.js', serverEnv],
    ['baseline', path.join(__dirname, 'baseline.js'), baselineEnv],
    ['plain', path.join(__dirname, 'plain.js'), serverEnv],
  ]) {
    const server = await startServer(`${label} (counted)`, script, {
      ...env(proxiedUrl),
      HTTP_PLATFORM: apps[0].platform,
    });
    for (const [index, scenario] of scenarios.entries()) {
      if (label === 'plain' && scenario.plain === false) continue;
      const counted = await countStatements(server, scenario, ctx);
      results.scenarios[index].statements ??= {};
      results.scenarios[index].statements[label] = counted;
    }
    await stopServer(server);
  }

  // Honesty check: the baseline must send the very statements the app sends, request
  // for request. A statement seen once in the run (an API key looked up again when its
  // cache runs out, at a moment that differs between the two) is not per request. A
  // scenario whose baseline is hand-written (BASELINE_SQL=best) differs by design: the
  // report says so instead of warning.
  for (const s of results.scenarios) {
    const texts = (counted) =>
      JSON.stringify(
        counted.texts
          .filter(({ count }) => count > 1)
          .map(({ count, text }) => [count, text])
          .sort(),
      );
    s.sameSql = texts(s.statements.app) === texts(s.statements.baseline);
  }

  results.finishedAt = new Date().toISOString();
  report(results);
  const out = path.join(__dirname, 'results', 'latest.json');
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nResults written to ${path.relative(process.cwd(), out)}`);
}

runBenchmark(main);
