'use strict';
/**
 * The floor of the change log and of a durable webhook (issue 43), for bench/plain.js:
 *
 * - `writeLog`: the change-log rows of a plain create, in its transaction: one row per row
 *   written, the same columns and JSON bytes as the app's entries (src/changes/), one
 *   multi-row INSERT (the invoice's entry made in a data-modifying WITH, so that its
 *   lines' entries name it as their parent);
 * - `PlainDispatcher`: the simplest durable at-least-once webhook sender: one loop that
 *   reads the committed new log rows in batches, POSTs each record's event over a kept-open
 *   connection with Standard Webhooks headers, and records the outcomes and its position
 *   in one statement per batch. A batch is the rows of the transactions that ended since
 *   the last (their ids below the oldest still under way: a key alone would pass over a
 *   transaction that commits after a later key was read); no order per record is kept.
 */
const http = require('node:http');
const { Webhook } = require('standardwebhooks');

/** The properties an entry holds, in the app's order (record-changes.ts: system ones first). */
const LOGGED = {
  invoice: [
    'uuid',
    'date_created',
    'extended',
    'number',
    'id_account',
    'status',
    'issue_date',
    'currency',
    'total',
  ],
  invoice_line: [
    'uuid',
    'date_created',
    'extended',
    'id_invoice',
    'id_product',
    'description',
    'quantity',
    'unit_price',
    'amount',
  ],
};

/** `{property: {new}}` of a row as the app reads it back (dates as ISO text). */
function createdChanges(entity, row) {
  const changes = {};
  for (const name of LOGGED[entity]) {
    const value = row[name] ?? null;
    changes[name] = { new: value instanceof Date ? value.toISOString() : value };
  }
  return JSON.stringify(changes);
}

const ENTRY_COLUMNS = `operation, entity, record_key, root_entity, root_key, id_organization,
  id_business_unit, id_user, changes, id_actor, actor_name, via, request_id, transaction_id,
  date_created`;

/**
 * The entries of an invoice and its lines, created by `actor` ({user, apiKey, requestId})
 * in `client`'s transaction.
 */
async function writeLog(client, actor, invoice, lines) {
  const owner = [invoice.id_organization, invoice.id_business_unit, invoice.id_user];
  const who = [actor.user.key, actor.user.user_name, `api-key ${actor.apiKey}`, actor.requestId];
  const values = [invoice.key, ...owner, ...who, createdChanges('invoice', invoice)];
  const tuples = lines.map((line) => {
    values.push(line.key, createdChanges('invoice_line', line));
    return `($${values.length - 1}::int8, $${values.length}::jsonb)`;
  });
  const common = `$2::int8, $3::int8, $4::int8`;
  const actorColumns = `$5::int8, $6, $7, $8, pg_current_xact_id()::text::int8,
    date_trunc('milliseconds', statement_timestamp())`;
  await client.query(
    `WITH parent AS (
       INSERT INTO change_log (key, ${ENTRY_COLUMNS})
       VALUES (nextval('change_log_key_seq'), 'created', 'invoice', $1, 'invoice', $1, ${common},
               $9::jsonb, ${actorColumns})
       RETURNING key)
     INSERT INTO change_log (key, id_parent_entry, ${ENTRY_COLUMNS})
     SELECT nextval('change_log_key_seq'), parent.key, 'created', 'invoice_line', v.key,
            'invoice', $1, ${common}, v.changes, ${actorColumns}
       FROM parent, (VALUES ${tuples.join(', ')}) v(key, changes)`,
    values,
  );
}

/** The longest wait between reads when no commit of this process woke the loop. */
const POLL_MS = 100;

class PlainDispatcher {
  constructor(pool, { url, secret }) {
    this.pool = pool;
    this.url = new URL(url);
    this.signer = new Webhook(secret);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
    this.wakeUp = () => {};
  }

  /** Its tables (position and outcomes), then the loop, from the log's end. */
  async start() {
    await this.pool.query(`CREATE TABLE IF NOT EXISTS plain_dispatch (
      name text PRIMARY KEY, position int8 NOT NULL)`);
    await this.pool.query(`CREATE TABLE IF NOT EXISTS plain_delivery (
      event_id int8 NOT NULL, status int4, error text, at timestamptz NOT NULL,
      duration_ms int4 NOT NULL)`);
    await this.pool.query(
      `INSERT INTO plain_dispatch
       SELECT 'webhook', pg_snapshot_xmin(pg_current_snapshot())::text::int8
       ON CONFLICT (name) DO NOTHING`,
    );
    const { rows } = await this.pool.query(
      `SELECT position FROM plain_dispatch WHERE name = 'webhook'`,
    );
    this.position = Number(rows[0].position);
    this.loop().catch((error) => {
      console.error('plain dispatcher stopped:', error);
      process.exit(1);
    });
  }

  /** After a commit that wrote the log. */
  wake() {
    this.wakeUp();
  }

  async loop() {
    for (;;) {
      const { rows: read } = await this.pool.query(
        `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::int8 AS horizon)
         SELECT h.horizon, c.key, c.date_created, c.operation, c.entity, c.record_key,
                c.id_parent_entry, c.changes, c.id_organization, c.id_actor, c.actor_name,
                c.via, c.request_id
           FROM h LEFT JOIN change_log c
             ON c.transaction_id >= $1 AND c.transaction_id < h.horizon
          ORDER BY c.key`,
        [this.position],
      );
      const position = Number(read[0].horizon);
      const rows = read.filter((row) => row.key !== null);
      if (rows.length === 0) {
        this.position = position;
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, POLL_MS);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        continue;
      }
      const outcomes = await Promise.all(eventsOf(rows).map((event) => this.post(event)));
      await this.pool.query(
        `WITH outcome AS (
           INSERT INTO plain_delivery (event_id, status, error, at, duration_ms)
           SELECT * FROM json_to_recordset($1::json)
             AS o(event_id int8, status int4, error text, at timestamptz, duration_ms int4))
         UPDATE plain_dispatch SET position = $2 WHERE name = 'webhook'`,
        [JSON.stringify(outcomes), position],
      );
      this.position = position;
    }
  }

  /** One signed POST; its outcome, never thrown. */
  post(event) {
    const at = new Date();
    const started = performance.now();
    const body = JSON.stringify(event);
    const outcome = (status, error) => ({
      event_id: Number(event.id),
      status,
      error,
      at: at.toISOString(),
      duration_ms: Math.round(performance.now() - started),
    });
    return new Promise((resolve) => {
      const request = http.request(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          timeout: 10_000,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'webhook-id': event.id,
            'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
            'webhook-signature': this.signer.sign(event.id, at, body),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(outcome(response.statusCode, null)));
        },
      );
      request.on('timeout', () => request.destroy(new Error('timed out')));
      request.on('error', (error) => resolve(outcome(null, error.message)));
      request.end(body);
    });
  }
}

/** The records' events of rows read in key order: each with its child rows' entries. */
function eventsOf(rows) {
  const below = new Map();
  for (const row of rows) {
    if (row.id_parent_entry === null) continue;
    const siblings = below.get(row.id_parent_entry) ?? [];
    siblings.push(row);
    below.set(row.id_parent_entry, siblings);
  }
  const children = (key) =>
    (below.get(key) ?? []).map((child) => ({
      entity: child.entity,
      key: child.record_key,
      operation: child.operation,
      changes: child.changes,
      children: children(child.key),
    }));
  return rows
    .filter((row) => row.id_parent_entry === null)
    .map((row) => ({
      id: String(row.key),
      type: `${row.entity}.${row.operation}`,
      occurredAt: row.date_created.toISOString(),
      organization: row.id_organization,
      actor: { user: row.id_actor, name: row.actor_name, via: row.via, requestId: row.request_id },
      entity: row.entity,
      key: row.record_key,
      operation: row.operation,
      changes: row.changes,
      children: children(row.key),
    }));
}

module.exports = { writeLog, PlainDispatcher };
