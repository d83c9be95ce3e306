'use strict';
/**
 * `npm run bench:events` (issue 43): what the change log and one webhook cost a write,
 * against the floor: the plain server (bench/plain.js) doing the same work by hand.
 *
 * Eight servers, each on a fresh database of the same PostgreSQL server with the demo data,
 * all creating invoices with 5 lines (an API key, 10 connections):
 *   plain                  node:http + pg, two INSERTs in a transaction
 *   plain+log              the same, writing the app's change-log rows in the transaction
 *   plain+log+dispatcher   the same, with a plain durable webhook sender (bench/plain-log.js)
 *   plain+log+worker       the same, the sender in a second plain server sent no request
 *   app, log off           the built app with AUDIT_LOG=false
 *   app                    the built app as `npm start` runs it
 *   app+webhook            the same with one active webhook on invoice.created
 *   app+webhook+worker     the same, the requests on an instance that works no queue
 *                          (JOBS=false), the dispatcher and the deliveries on a second
 *                          (EVENTS_POLL_MS=100, the plain sender's poll): the worker's CPU
 *                          is what each dispatcher alone costs an event
 * Both senders deliver to one receiver on loopback in this process, which answers 200 at
 * once and counts each server's deliveries by their `webhook-id`.
 *
 * Per round (BENCH_ROUNDS, interleaved: each server in turn), autocannon for
 * BENCH_DURATION s; a server that sends webhooks is then waited for until every event of
 * its round has arrived. Per server and round: req/s; machine time per request (the
 * round's wall time, its drain included, over its creates: what the whole machine spent
 * per request at saturation); CPU per request of the server, of its worker and of
 * PostgreSQL (/proc).
 * The figures (medians of the rounds, with their spread):
 *   log:     (app − app log off) ÷ (plain+log − plain), in machine time per request
 *   webhook: (app+webhook − app) ÷ (plain+log+dispatcher − plain+log)
 *   (and the same of the two +worker servers, with each sender in a process of its own)
 * Each must be ≤ 1.1. Every delivery is checked: none missing, none twice.
 *
 * Env: BENCH_DATABASE_URL (else the embedded server), BENCH_DURATION (10),
 * BENCH_CONNECTIONS (10), BENCH_ROUNDS (5), BENCH_WARMUP (3), BENCH_ONLY (labels to run,
 * comma-separated).
 */
const http = require('node:http');
const { randomBytes } = require('node:crypto');
const autocannon = require('autocannon');
const {
  createDatabase,
  demoAppEnv,
  log,
  median,
  numberFromEnv: number,
  request,
  runBenchmark,
  sampleCpu,
  signIn,
  sleep,
  startServer,
  stopServer,
} = require('./harness');

const SETTINGS = {
  duration: number('BENCH_DURATION', 10),
  connections: number('BENCH_CONNECTIONS', 10),
  rounds: number('BENCH_ROUNDS', 5),
  warmup: number('BENCH_WARMUP', 3),
};
/** The longest a round waits for its last deliveries. */
const DRAIN_TIMEOUT_MS = 120_000;

const SERVERS = [
  { label: 'plain', plain: true, env: {} },
  { label: 'plain+log', plain: true, env: { PLAIN_LOG: '1' } },
  { label: 'plain+log+dispatcher', plain: true, env: { PLAIN_LOG: '1' }, webhook: true },
  {
    label: 'plain+log+worker',
    plain: true,
    env: { PLAIN_LOG: '1' },
    webhook: true,
    worker: true,
  },
  { label: 'app, log off', env: { AUDIT_LOG: 'false' } },
  { label: 'app', env: {} },
  { label: 'app+webhook', env: {}, webhook: true },
  { label: 'app+webhook+worker', env: { JOBS: 'false' }, webhook: true, worker: true },
];

/**
 * The loopback receiver: each server's deliveries (by path) and their ids, of events that
 * occurred since the server's counts were last reset.
 */
class Receiver {
  constructor() {
    this.byServer = new Map();
    this.server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        res.end('ok');
        const counts = this.countsOf(decodeURIComponent(req.url.slice('/hook/'.length)));
        const event = JSON.parse(Buffer.concat(chunks).toString());
        if (Date.parse(event.occurredAt) < counts.since) return;
        counts.deliveries++;
        counts.ids.add(req.headers['webhook-id']);
      });
    });
  }

  countsOf(label) {
    if (!this.byServer.has(label)) this.reset(label);
    return this.byServer.get(label);
  }

  reset(label) {
    this.byServer.set(label, { deliveries: 0, ids: new Set(), since: Date.now() });
  }

  async start() {
    this.server.keepAliveTimeout = 60_000;
    await new Promise((done) => this.server.listen(0, '127.0.0.1', done));
    this.base = `http://127.0.0.1:${this.server.address().port}/hook/`;
  }

  urlOf(label) {
    return this.base + encodeURIComponent(label);
  }

  /** Waits until `label` has had `expected` distinct deliveries; false after the timeout. */
  async drained(label, expected) {
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (this.countsOf(label).ids.size < expected) {
      if (Date.now() > deadline) return false;
      await sleep(10);
    }
    return true;
  }

  stop() {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(done));
  }
}

/** An account and three products to invoice, made through the app. */
async function invoiceRows(app, apiKey) {
  const create = async (name, properties) => {
    const made = await request(app.base, 'POST', `/rest/entity/${name}`, {
      headers: { 'x-api-key': apiKey },
      body: { entity_name: name, properties },
    });
    if (made.status !== 200) throw new Error(`${name}: ${made.status} ${made.text}`);
    return JSON.parse(made.text).key;
  };
  const account = await create('account', { name: 'Bench Industries' });
  const products = [];
  for (const [code, price] of [
    ['EV-1', '12.50'],
    ['EV-2', '99.99'],
    ['EV-3', '85.00'],
  ]) {
    products.push(await create('product', { code, name: code, price }));
  }
  return { account, products };
}

function invoiceBody({ account, products }) {
  const prices = ['12.50', '99.99', '85.00', '0.35', '1234.56'];
  return JSON.stringify({
    entity_name: 'invoice',
    properties: { id_account: account, currency: 'EUR' },
    children: {
      invoice_invoice_line: prices.map((price, i) => ({
        properties: { id_product: products[i % 3], quantity: i + 1, unit_price: price },
      })),
    },
  });
}

/**
 * A server of SERVERS, started on a database the app set up (demo data, an API key, the
 * rows to invoice; the webhook, for the app); a plain one runs on it once the app stopped.
 */
async function startBenchServer(spec, receiver) {
  const database = await createDatabase();
  const appEnv = { ...(await demoAppEnv(database)), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
  let app = await startServer(spec.label, 'dist/src/main.js', { ...appEnv, ...spec.env });
  const { apiKey } = await signIn(app);
  const rows = await invoiceRows(app, apiKey);
  if (spec.webhook && !spec.plain) {
    const made = await request(app.base, 'POST', '/rest/webhooks', {
      headers: { 'x-api-key': apiKey },
      body: { name: 'bench', url: receiver.urlOf(spec.label), events: 'invoice.created' },
    });
    if (made.status !== 201) throw new Error(`webhook: ${made.status} ${made.text}`);
  }
  let worker;
  if (spec.plain) {
    await stopServer(app);
    const plainEnv = { DATABASE_URL: appEnv.DATABASE_URL, HOST: '127.0.0.1', ...spec.env };
    const sender = spec.webhook
      ? {
          PLAIN_WEBHOOK_URL: receiver.urlOf(spec.label),
          PLAIN_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
        }
      : {};
    app = await startServer(spec.label, 'bench/plain.js', {
      ...plainEnv,
      ...(spec.worker ? {} : sender),
    });
    // A second plain server, sent no request: its sender reads the first one's log.
    if (spec.worker) {
      worker = await startServer(`${spec.label} (worker)`, 'bench/plain.js', {
        ...plainEnv,
        ...sender,
      });
    }
  } else if (spec.worker) {
    // Polled as often as the plain sender polls when no commit of its own wakes it.
    worker = await startServer(`${spec.label} (worker)`, 'dist/src/main.js', {
      ...appEnv,
      EVENTS_POLL_MS: '100',
    });
  }
  return { ...spec, server: app, worker, apiKey, body: invoiceBody(rows) };
}

function createLoad(bench, duration) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${bench.server.base}/rest/entity/invoice`,
        method: 'POST',
        headers: { 'x-api-key': bench.apiKey, 'content-type': 'application/json' },
        body: bench.body,
        connections: SETTINGS.connections,
        duration,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** One round of one server: its load, then its deliveries; the round's figures. */
async function measure(bench, receiver, duration = SETTINGS.duration) {
  receiver.reset(bench.label);
  const counts = receiver.countsOf(bench.label);
  const cpu = sampleCpu(bench.server.child.pid);
  const workerCpu = bench.worker && sampleCpu(bench.worker.child.pid);
  const started = performance.now();
  const load = await createLoad(bench, duration);
  const loadEnded = performance.now();
  const created = load['2xx'];
  if (bench.webhook && !(await receiver.drained(bench.label, created))) {
    throw new Error(`${bench.label}: events missing after ${DRAIN_TIMEOUT_MS} ms`);
  }
  const ended = performance.now();
  const { serverMs, postgresMs } = cpu();
  return {
    rps: created / ((loadEnded - started) / 1000),
    msPerRequest: (ended - started) / created,
    serverCpuMs: serverMs / created,
    workerCpuMs: workerCpu ? workerCpu().serverMs / created : 0,
    postgresCpuMs: postgresMs / created,
    drainMs: Math.round(ended - loadEnded),
    refused: load.non2xx + load.errors,
    // Creates still under way when the load ended are delivered too: more ids, not fewer.
    missing: bench.webhook ? Math.max(0, created - counts.ids.size) : 0,
    duplicates: bench.webhook ? counts.deliveries - counts.ids.size : 0,
  };
}

const spread = (values) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

function report(benches, rounds) {
  const figures = (label, key) => rounds.map((round) => round[label][key]);
  console.log(
    `\nThe change log and one webhook against the plain floor (issue 43): create an invoice ` +
      `with 5 lines, ${SETTINGS.rounds} rounds of ${SETTINGS.duration} s at ` +
      `${SETTINGS.connections} connections; medians (spread)\n`,
  );
  console.log(
    '| server | req/s | machine ms per request | server CPU ms | worker CPU ms | PostgreSQL CPU ms | drain ms |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const { label } of benches) {
    const cell = (key, digits) =>
      `${median(figures(label, key)).toFixed(digits)} (${spread(figures(label, key))})`;
    console.log(
      `| ${label} | ${median(figures(label, 'rps')).toFixed(0)} (${figures(label, 'rps')
        .map((v) => v.toFixed(0))
        .join(', ')}) | ${cell('msPerRequest', 3)} | ${cell('serverCpuMs', 3)} | ` +
        `${cell('workerCpuMs', 3)} | ` +
        `${cell('postgresCpuMs', 3)} | ${median(figures(label, 'drainMs'))} |`,
    );
  }
  const added = (label, base) => rounds.map((r) => r[label].msPerRequest - r[base].msPerRequest);
  const ratios = (a, b) => a.map((value, i) => value / b[i]);
  const compare = (what, app, appBase, plain, plainBase) => {
    if (![app, appBase, plain, plainBase].every((l) => benches.some((b) => b.label === l))) return;
    const appAdds = added(app, appBase);
    const plainAdds = added(plain, plainBase);
    const ratio = ratios(appAdds, plainAdds);
    console.log(
      `\n${what}: the app adds ${median(appAdds).toFixed(3)} ms per request ` +
        `(${spread(appAdds)}), the plain server ${median(plainAdds).toFixed(3)} ms ` +
        `(${spread(plainAdds)}): ${median(ratio).toFixed(2)} × the floor ` +
        `(rounds ${ratio.map((v) => v.toFixed(2)).join(', ')}; must be ≤ 1.10)`,
    );
  };
  compare('The change log', 'app', 'app, log off', 'plain+log', 'plain');
  compare('One webhook', 'app+webhook', 'app', 'plain+log+dispatcher', 'plain+log');
  compare('One webhook, on a worker', 'app+webhook+worker', 'app', 'plain+log+worker', 'plain+log');
  const problems = rounds.flatMap((round, i) =>
    Object.entries(round)
      .filter(([, r]) => r.refused || r.missing || r.duplicates)
      .map(([label, r]) => `round ${i + 1}, ${label}: ${JSON.stringify(r)}`),
  );
  console.log(
    problems.length === 0
      ? '\nEvery create answered 200; every event delivered once.'
      : `\nProblems:\n${problems.join('\n')}`,
  );
}

async function main() {
  const receiver = new Receiver();
  await receiver.start();
  const only = process.env.BENCH_ONLY?.split(',').map((label) => label.trim());
  const benches = [];
  for (const spec of SERVERS.filter(({ label }) => !only || only.includes(label))) {
    log(`starting ${spec.label}`);
    benches.push(await startBenchServer(spec, receiver));
  }
  for (const bench of benches) {
    log(`warming up ${bench.label}`);
    await measure(bench, receiver, SETTINGS.warmup);
  }
  const rounds = [];
  for (let round = 1; round <= SETTINGS.rounds; round++) {
    const figures = {};
    for (const bench of benches) {
      figures[bench.label] = await measure(bench, receiver);
      log(
        `round ${round}, ${bench.label}: ${figures[bench.label].rps.toFixed(0)} req/s, ` +
          `${figures[bench.label].msPerRequest.toFixed(3)} ms per request`,
      );
    }
    rounds.push(figures);
  }
  report(benches, rounds);
  await receiver.stop();
}

runBenchmark(main);
