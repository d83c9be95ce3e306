'use strict';
/**
 * A counting TCP proxy for the PostgreSQL wire protocol, used by the benchmark to see
 * exactly which statements a server sends per request. Bytes are forwarded unchanged;
 * a copy of the client-to-server stream is parsed (frontend messages only):
 *   Q (simple query)  -> one statement, one round trip
 *   P/B/E (extended)  -> Execute is one statement; its text comes from Parse via Bind
 *   S (Sync)          -> one round trip (the client waits for ReadyForQuery)
 * Plain TCP only (no SSL), which is what `pg` does unless told otherwise.
 */
const net = require('node:net');

/** The application_name of the app's LISTEN connection (src/database/postgres-listener.ts). */
const LISTENER = 'atrium access listener';

/** The startup message's parameters: name and value, NUL-terminated, in pairs. */
function startupParameters(body) {
  const parts = body.toString('utf8').split('\0');
  const parameters = {};
  for (let i = 0; i + 1 < parts.length; i += 2) parameters[parts[i]] = parts[i + 1];
  return parameters;
}

class PgCountingProxy {
  constructor(target) {
    this.target = target; // { host, port } or { path } (a unix socket)
    this.sockets = new Set();
    this.reset();
  }

  reset() {
    this.connections = 0;
    this.statements = 0;
    this.roundTrips = 0;
    this.byText = new Map();
  }

  /** Counters since the last reset, statements grouped by text (most frequent first). */
  snapshot() {
    return {
      connections: this.connections,
      statements: this.statements,
      roundTrips: this.roundTrips,
      texts: [...this.byText.entries()]
        .map(([text, count]) => ({ count, text }))
        .sort((a, b) => b.count - a.count),
    };
  }

  async listen() {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', resolve);
    });
    this.port = this.server.address().port;
    return this.port;
  }

  async close() {
    for (const socket of this.sockets) socket.destroy();
    if (this.server) await new Promise((resolve) => this.server.close(() => resolve()));
  }

  accept(client) {
    this.connections += 1;
    const upstream = net.connect(this.target);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    this.sockets.add(client).add(upstream);
    const state = {
      buffer: Buffer.alloc(0),
      started: false,
      statements: new Map(),
      portals: new Map(),
    };
    client.on('data', (chunk) => {
      upstream.write(chunk);
      try {
        this.parse(state, chunk);
      } catch {
        // Counting must never break the connection.
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }

  parse(state, chunk) {
    state.buffer = state.buffer.length ? Buffer.concat([state.buffer, chunk]) : chunk;
    let buf = state.buffer;
    for (;;) {
      if (!state.started) {
        // StartupMessage / SSLRequest / CancelRequest: int32 length, no type byte.
        if (buf.length < 4) break;
        const length = buf.readInt32BE(0);
        if (buf.length < length) break;
        const code = buf.readInt32BE(4);
        // 80877103 = SSLRequest, 80877104 = GSSENCRequest: a startup message follows.
        if (code !== 80877103 && code !== 80877104) {
          state.started = true;
          // The app's access listener (a heartbeat a second) runs no request's statements.
          const { application_name: name } = startupParameters(buf.subarray(8, length));
          state.ignored = name === LISTENER;
          if (state.ignored) this.connections -= 1;
        }
        buf = buf.subarray(length);
        continue;
      }
      if (buf.length < 5) break;
      const type = String.fromCharCode(buf[0]);
      const length = buf.readInt32BE(1);
      if (buf.length < 1 + length) break;
      this.message(state, type, buf.subarray(5, 1 + length));
      buf = buf.subarray(1 + length);
    }
    state.buffer = buf.length ? Buffer.from(buf) : Buffer.alloc(0);
  }

  message(state, type, body) {
    if (state.ignored) return;
    switch (type) {
      case 'Q': {
        this.statements += 1;
        this.roundTrips += 1;
        this.count(cString(body, 0).value);
        break;
      }
      case 'P': {
        const name = cString(body, 0);
        const query = cString(body, name.next);
        state.statements.set(name.value, query.value);
        break;
      }
      case 'B': {
        const portal = cString(body, 0);
        const statement = cString(body, portal.next);
        state.portals.set(portal.value, state.statements.get(statement.value) ?? '?');
        break;
      }
      case 'E': {
        const portal = cString(body, 0);
        this.statements += 1;
        this.count(state.portals.get(portal.value) ?? '?');
        break;
      }
      case 'S':
        this.roundTrips += 1;
        break;
      default:
        break;
    }
  }

  count(text) {
    const key = text.replace(/\s+/g, ' ').trim();
    this.byText.set(key, (this.byText.get(key) ?? 0) + 1);
  }
}

function cString(buffer, start) {
  const end = buffer.indexOf(0, start);
  return { value: buffer.toString('utf8', start, end), next: end + 1 };
}

module.exports = { PgCountingProxy, LISTENER };
