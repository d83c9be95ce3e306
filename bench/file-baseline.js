'use strict';
/**
 * The storage benchmark's baseline: a bare node:http server that streams FILE from disk
 * (GET) and streams a request body to a temporary file, fsynced (POST), with nothing else.
 * Env: FILE, PORT, HOST.
 */
const http = require('node:http');
const { createReadStream, createWriteStream, statSync } = require('node:fs');
const { rm } = require('node:fs/promises');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { randomUUID } = require('node:crypto');
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
      await pipeline(createReadStream(FILE), response);
    } else if (request.method === 'POST') {
      const target = join(tmpdir(), `file-baseline-${randomUUID()}`);
      await pipeline(request, createWriteStream(target, { flush: true }));
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
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
