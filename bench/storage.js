'use strict';
/**
 * `npm run bench:storage`: /storage against a bare node:http server streaming the same
 * file from disk (bench/file-baseline.js), in one run: download and upload of a 10 MiB
 * file in MB/s; then the app's peak RSS while it takes in and gives back a 1 GiB file.
 * Targets (issue 7): download >= 0.8 of the bare stream, upload >= 0.6, RSS growth
 * under 64 MiB for the 1 GiB file. The upload is also set against the bare server
 * hashing sha256 inline (which the app must compute): on a CPU without SHA extensions
 * the digest alone bounds an upload well below a bare disk write.
 *
 * Env: BENCH_DATABASE_URL, BENCH_DURATION (s, 10), BENCH_CONNECTIONS (4),
 * BENCH_STORAGE_DRIVER (fs), BENCH_BIG_MB (1024).
 */
const { randomFillSync, randomUUID } = require('node:crypto');
const { createReadStream, openSync, readFileSync, writeSync, closeSync } = require('node:fs');
const { mkdtemp, rm } = require('node:fs/promises');
const http = require('node:http');
const { tmpdir } = require('node:os');
const path = require('node:path');
const {
  ADMIN_PASSWORD,
  createDatabase,
  databaseUrl,
  log,
  onCleanup,
  runBenchmark,
  signIn,
  sleep,
  startServer,
  stopServer,
  numberFromEnv: number,
} = require('./harness');

const env = process.env;
const SETTINGS = {
  duration: number('BENCH_DURATION', 10),
  connections: number('BENCH_CONNECTIONS', 4),
  driver: env.BENCH_STORAGE_DRIVER || 'fs',
  bigMb: number('BENCH_BIG_MB', 1024),
};
const MiB = 1024 * 1024;

/** A file of random bytes, written 16 MiB at a time. */
function randomFile(file, bytes) {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(Math.min(bytes, 16 * MiB));
  for (let written = 0; written < bytes; written += block.length) {
    randomFillSync(block);
    writeSync(fd, block, 0, Math.min(block.length, bytes - written));
  }
  closeSync(fd);
}

/** The framing of a one-file multipart form around `bytes` bytes of file. */
function multipart(bytes) {
  const boundary = `----bench${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    head,
    tail,
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + bytes + tail.length,
  };
}

/**
 * MiB moved per second by `connections` loops of `exchange` for the duration: each
 * resolves with the bytes it moved. (autocannon parses whole bodies and tops out far
 * below a local stream of 10 MiB answers.)
 */
async function transfer(exchange) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: SETTINGS.connections });
  const until = Date.now() + SETTINGS.duration * 1000;
  let bytes = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: SETTINGS.connections }, async () => {
      while (Date.now() < until) {
        // Not `bytes += await …`: that reads `bytes` before the await, and the loops
        // running beside it would overwrite each other's counts.
        const moved = await exchange(agent);
        bytes += moved;
      }
    }),
  );
  agent.destroy();
  return bytes / MiB / ((Date.now() - started) / 1000);
}

/** One GET, its body counted and thrown away. */
function get(url, headers, agent) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent }, (response) => {
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(bytes)
            : reject(new Error(`GET ${url}: ${response.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

/** One POST of `body`; resolves with the file bytes it carried. */
function post(url, headers, body, fileBytes, agent) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': body.length },
      agent,
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 201
          ? resolve(fileBytes)
          : reject(new Error(`POST ${url}: ${response.statusCode}`)),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The highest VmRSS of a process while `work` runs, sampled every 20 ms, in MiB. */
async function peakRss(pid, work) {
  const rss = () => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
  };
  const before = rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return { before, peak: Math.max(peak, rss()) };
}

/** Streams a file from disk as a multipart upload; resolves with the response JSON. */
function uploadFile(base, apiKey, file, bytes) {
  const form = multipart(bytes);
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}/storage`, {
      method: 'POST',
      headers: {
        'x-api-key': apiKey,
        'content-type': form.contentType,
        'content-length': form.length,
      },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () =>
        response.statusCode === 201
          ? resolve(JSON.parse(text))
          : reject(new Error(`${response.statusCode} ${text}`)),
      );
    });
    request.on('error', reject);
    request.write(form.head);
    const source = createReadStream(file);
    source.pipe(request, { end: false });
    source.on('end', () => request.end(form.tail));
  });
}

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'atrium-bench-storage-'));
  onCleanup(() => rm(work, { recursive: true, force: true }));
  const smallFile = path.join(work, 'ten.bin');
  randomFile(smallFile, 10 * MiB);

  const database = await createDatabase();
  const app = await startServer('app', 'dist/src/main.js', {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ADMIN_PASSWORD,
    DEMO_DATA: 'false',
    DATABASE_URL: await databaseUrl(database.name),
    DATA_DIR: path.join(work, 'data'),
    STORAGE_DRIVER: SETTINGS.driver,
    MAX_UPLOAD_BYTES: String(2 * 1024 * MiB),
  });
  const baseline = await startServer('baseline', path.join(__dirname, 'file-baseline.js'), {
    HOST: '127.0.0.1',
    FILE: smallFile,
  });
  const { apiKey } = await signIn(app);
  const stored = await uploadFile(app.base, apiKey, smallFile, 10 * MiB);
  log(`app up on ${app.base} (${SETTINGS.driver} backend), baseline on ${baseline.base}`);

  const download = {
    app: await transfer((agent) =>
      get(`${app.base}/storage?id=${stored.id}`, { 'x-api-key': apiKey }, agent),
    ),
    baseline: await transfer((agent) => get(`${baseline.base}/file`, {}, agent)),
  };
  log(
    `download: app ${download.app.toFixed(0)} MB/s, baseline ${download.baseline.toFixed(0)} MB/s`,
  );

  const form = multipart(10 * MiB);
  const body = Buffer.concat([form.head, readFileSync(smallFile), form.tail]);
  const formHeaders = { 'content-type': form.contentType };
  const upload = {
    app: await transfer((agent) =>
      post(`${app.base}/storage`, { ...formHeaders, 'x-api-key': apiKey }, body, 10 * MiB, agent),
    ),
    baseline: await transfer((agent) =>
      post(`${baseline.base}/file`, formHeaders, body, 10 * MiB, agent),
    ),
  };
  await stopServer(baseline);
  const hashingBaseline = await startServer(
    'baseline+sha256',
    path.join(__dirname, 'file-baseline.js'),
    {
      HOST: '127.0.0.1',
      FILE: smallFile,
      HASH: 'sha256',
    },
  );
  upload.hashingBaseline = await transfer((agent) =>
    post(`${hashingBaseline.base}/file`, formHeaders, body, 10 * MiB, agent),
  );
  await stopServer(hashingBaseline);
  log(
    `upload: app ${upload.app.toFixed(0)} MB/s, baseline ${upload.baseline.toFixed(0)} MB/s, ` +
      `baseline hashing sha256 ${upload.hashingBaseline.toFixed(0)} MB/s`,
  );

  // 1 GiB through the app: its resident memory before and at its highest.
  const bigFile = path.join(work, 'big.bin');
  randomFile(bigFile, SETTINGS.bigMb * MiB);
  await sleep(500);
  let big;
  const uploadRss = await peakRss(app.child.pid, async () => {
    big = await uploadFile(app.base, apiKey, bigFile, SETTINGS.bigMb * MiB);
  });
  let received = 0;
  const downloadRss = await peakRss(app.child.pid, async () => {
    received = await get(`${app.base}/storage?id=${big.id}`, { 'x-api-key': apiKey });
  });
  if (received !== SETTINGS.bigMb * MiB) throw new Error(`downloaded ${received} bytes`);
  await stopServer(app);

  const row = (name, a, b) =>
    `${name.padEnd(10)} ${a.toFixed(0).padStart(9)} ${b.toFixed(0).padStart(14)} ${(a / b).toFixed(2).padStart(13)}`;
  console.log(
    `\n/storage, 10 MiB file, ${SETTINGS.connections} connections, ${SETTINGS.duration} s each (${SETTINGS.driver} backend)\n`,
  );
  console.log(
    `${'scenario'.padEnd(10)} ${'app MB/s'.padStart(9)} ${'baseline MB/s'.padStart(14)} ${'app/baseline'.padStart(13)}`,
  );
  console.log(row('download', download.app, download.baseline));
  console.log(row('upload', upload.app, upload.baseline));
  console.log(
    `${row('upload', upload.app, upload.hashingBaseline)}  (baseline hashing sha256 too)`,
  );
  const growth = (rss) =>
    `${rss.before.toFixed(0)} MiB -> peak ${rss.peak.toFixed(0)} MiB (+${(rss.peak - rss.before).toFixed(0)} MiB)`;
  console.log(
    `\nApp RSS with a ${SETTINGS.bigMb} MiB file: upload ${growth(uploadRss)}; download ${growth(downloadRss)}`,
  );
}

runBenchmark(main);
