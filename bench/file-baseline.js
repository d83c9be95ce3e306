'use strict';
/**
 * The storage benchmark's baseline: a bare node:http server that streams FILE from disk
 * (GET) and streams a request body to a temporary file, fsynced (POST), with nothing else.
 * With HASH=sha256 the POST also hashes the body inline, as any content-addressed store
 * must: a reference for how much of an upload's cost is the digest itself.
 * Env: FILE, PORT, HOST, HASH.
 */
const http = require('node:http');
const { createReadStream, createWriteStream, statSync } = require('node:fs');
const { rm } = require('node:fs/promises');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createHash, randomUUID } = require('node:crypto');
const { pipeline } = require('node:stream/promises');

const FILE = process.env.FILE;
const { size } = statSync(FILE);

const server = http.createServer(async (request, response) => {
  try {
    if (request.method === 'GET' && request.url === '/health') {
      response.end('ok');
    } else if (request.method === 'GET') {
      response.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': size,
      });
      // The same 1 MiB reads the fs backend makes, so the ratio measures the app, not the read size.
      await pipeline(createReadStream(FILE, { highWaterMark: 1024 * 1024 }), response);
    } else if (request.method === 'POST') {
      const target = join(tmpdir(), `file-baseline-${randomUUID()}`);
      const steps = process.env.HASH ? [digesting(process.env.HASH)] : [];
      await pipeline(
        request,
        ...steps,
        createWriteStream(target, { flush: true, highWaterMark: 1024 * 1024 }),
      );
      await rm(target);
      response.writeHead(201, { 'Content-Type': 'application/json' });
      response.end('{}');
    } else {
      response.writeHead(404);
      response.end();
    }
  } catch (error) {
    response.destroy(error);
  }
});
function digesting(algorithm) {
  const hash = createHash(algorithm);
  return async function* (chunks) {
    for await (const chunk of chunks) {
      hash.update(chunk);
      yield chunk;
    }
    hash.digest();
  };
}

server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
