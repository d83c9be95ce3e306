'use strict';
/**
 * `npm run bench:webhooks`: a webhook's delivery latency and a burst, on the built app on a
 * fresh database with the demo data, and a webhook receiver on loopback in this process
 * that answers 200 at once and keeps each delivery's `webhook-id` and arrival time. (What a
 * webhook costs a write, against a plain dispatcher, is `npm run bench:events`.)
 *
 *   1. latency, on the idle server: one webhook on account.created; LATENCY_REQUESTS
 *      creates one after the other, LATENCY_GAP_MS apart; for each, the time from the
 *      create being sent to its event reaching the receiver (an upper bound of commit →
 *      delivery): p50, p95, max. Must hold: p95 ≤ 1 s.
 *   2. a burst of BURST creates at BENCH_CONNECTIONS with the webhook on: the time from the
 *      first create to the last delivery, events missing, duplicates. Must hold: none
 *      missing, the last within 60 s.
 *
 * Env: BENCH_DATABASE_URL (else the embedded server), BENCH_CONNECTIONS (10),
 * LATENCY_REQUESTS (200), LATENCY_GAP_MS (50), BURST (10000), BENCH_WORKER=1 (the requests
 * on an instance with JOBS=false, the dispatcher and the deliveries on a second one with
 * JOBS=true and EVENTS_POLL_MS=100).
 */
const http = require('node:http');
const autocannon = require('autocannon');
const {
  createDatabase,
  demoAppEnv,
  log,
  numberFromEnv: number,
  percentile,
  request,
  runBenchmark,
  signIn,
  sleep,
  startServer,
} = require('./harness');

const SETTINGS = {
  connections: number('BENCH_CONNECTIONS', 10),
  latencyRequests: number('LATENCY_REQUESTS', 200),
  latencyGapMs: number('LATENCY_GAP_MS', 50),
  burst: number('BURST', 10_000),
};
const WORKER = process.env.BENCH_WORKER === '1';
/** The longest a phase waits for its last deliveries. */
const DRAIN_TIMEOUT_MS = 180_000;

/** The loopback receiver: every delivery's id and arrival, and who waits for which key. */
class Receiver {
  constructor() {
    this.ids = new Set();
    this.deliveries = 0;
    this.lastArrival = 0;
    this.waiting = new Map();
    this.arrivals = new Map();
    this.since = 0;
    this.server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        const arrival = performance.now();
        res.end('ok');
        const event = JSON.parse(Buffer.concat(chunks).toString());
        // A phase counts the events of its own creates (a round's late ones are not).
        this.lastBody ??= Buffer.concat(chunks).toString();
        if (Date.parse(event.occurredAt) < this.since) return;
        this.deliveries++;
        this.ids.add(req.headers['webhook-id']);
        this.lastArrival = arrival;
        const waiting = this.waiting.get(event.key);
        if (waiting) waiting(arrival);
        else if (this.tracking) this.arrivals.set(event.key, arrival);
      });
    });
  }

  async start() {
    await new Promise((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${this.server.address().port}/hook`;
  }

  /** Forgets what came so far: a phase counts its own deliveries. */
  reset() {
    this.ids.clear();
    this.deliveries = 0;
    this.since = Date.now();
  }

  /** Resolves with the arrival time of the event of account `key`. */
  arrivalOf(key) {
    // The event may come before the create's answer reaches this process.
    if (this.arrivals.has(key)) return Promise.resolve(this.arrivals.get(key));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no delivery for account ${key}`)), 30_000);
      this.waiting.set(key, (arrival) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        resolve(arrival);
      });
    });
  }

  async drained(expected) {
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (this.ids.size < expected) {
      if (Date.now() > deadline) return false;
      await sleep(50);
    }
    return true;
  }

  stop() {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(done));
  }
}

const createBody = (name) => JSON.stringify({ entity_name: 'account', properties: { name } });

/** autocannon creating accounts, as `limits` says (`amount`). */
function createLoad(app, apiKey, limits) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${app.base}/rest/entity/account`,
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: createBody('Bench webhook account'),
        connections: SETTINGS.connections,
        ...limits,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function main() {
  const receiver = new Receiver();
  await receiver.start();
  const appEnv = {
    ...(await demoAppEnv(await createDatabase())),
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  };
  // BENCH_WORKER=1: the deliveries on an instance of their own (JOBS=true), the requests on
  // one that works no queue (JOBS=false), as README "Webhooks" describes for scale.
  const app = await startServer('app', 'dist/src/main.js', {
    ...appEnv,
    ...(WORKER ? { JOBS: 'false' } : {}),
  });
  if (WORKER) {
    await startServer('worker', 'dist/src/main.js', { ...appEnv, EVENTS_POLL_MS: '100' });
  }
  const { apiKey } = await signIn(app);
  const headers = { 'x-api-key': apiKey };
  const made = await request(app.base, 'POST', '/rest/webhooks', {
    headers,
    body: { name: 'bench', url: receiver.url, events: 'account.created' },
  });
  if (made.status !== 201) throw new Error(`webhook: ${made.status} ${made.text}`);
  // The dispatcher sees the webhook at its next pass (EVENTS_POLL_MS, a second by default).
  await sleep(1500);

  log(`latency: ${SETTINGS.latencyRequests} creates, ${SETTINGS.latencyGapMs} ms apart`);
  receiver.tracking = true;
  const latencies = [];
  for (let i = 0; i < SETTINGS.latencyRequests; i++) {
    const sent = performance.now();
    const created = await request(app.base, 'POST', '/rest/entity/account', {
      headers: { ...headers, 'content-type': 'application/json' },
      body: createBody(`Latency ${i}`),
    });
    if (created.status !== 200) throw new Error(`create: ${created.status} ${created.text}`);
    const arrival = await receiver.arrivalOf(JSON.parse(created.text).key);
    latencies.push(arrival - sent);
    await sleep(SETTINGS.latencyGapMs);
  }
  receiver.tracking = false;
  latencies.sort((a, b) => a - b);
  const latency = {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: Math.round(latencies[latencies.length - 1]),
  };
  log(`latency p50 ${latency.p50} ms, p95 ${latency.p95} ms, max ${latency.max} ms`);

  log(`burst: ${SETTINGS.burst} creates`);
  receiver.reset();
  const burstStart = performance.now();
  const burst = await createLoad(app, apiKey, { amount: SETTINGS.burst });
  const burstSent = performance.now();
  const complete = await receiver.drained(burst['2xx']);
  const burstFigures = {
    created: burst['2xx'],
    refused: burst.non2xx,
    sentInMs: Math.round(burstSent - burstStart),
    lastDeliveryAfterMs: Math.round(receiver.lastArrival - burstStart),
    missing: burst['2xx'] - receiver.ids.size,
    duplicates: receiver.deliveries - receiver.ids.size,
    complete,
  };

  console.log(
    `\nWebhooks: one webhook on account.created, a receiver on loopback` +
      (WORKER ? ', deliveries on a worker instance' : ''),
  );
  console.log(
    `  commit → delivery, idle, ${SETTINGS.latencyRequests} creates: p50 ${latency.p50} ms, ` +
      `p95 ${latency.p95} ms, max ${latency.max} ms (p95 must be ≤ 1000)`,
  );
  console.log(
    `  burst of ${burstFigures.created} creates (${burstFigures.refused} refused) sent in ` +
      `${burstFigures.sentInMs} ms: last delivery ${burstFigures.lastDeliveryAfterMs} ms after ` +
      `the first create (must be ≤ 60000), missing ${burstFigures.missing}, duplicates ` +
      `${burstFigures.duplicates}`,
  );
  await receiver.stop();
}

runBenchmark(main);
