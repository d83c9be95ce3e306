'use strict';
/**
 * The plain baseline (issue 31): the simplest correct server a developer would write by
 * hand for the benchmarked answers, with node:http and pg, on the app's tables and data.
 * bench/baseline.js repeats the app's work (its access predicates, its guarded INSERT,
 * its session rotation), so it prices the framework alone; this one does only what the
 * answers need, so app ÷ plain prices everything the app adds:
 *
 * - API keys checked against a Map in memory (a key is read from the database once, at
 *   its first use); a session cookie by one SELECT on its token;
 * - the organization filter on every read and nothing else: no roles, no depths;
 * - a create as two plain INSERTs in a transaction, the account and products checked to
 *   be the organization's inside them, the totals computed as the demo hooks do;
 * - FETCH: no query language; each benchmarked query text is mapped to the SQL one would
 *   write for it. POST /rest/fetch/parse has nothing to compare with (no parser): no route.
 *
 * Its answers are the app's (bench/run.js compares them, key order aside); run by
 * bench/run.js as a child process with DATABASE_URL, PORT, HOST, DATABASE_POOL_SIZE.
 */
const http = require('node:http');
const { createHash, randomUUID } = require('node:crypto');
const { availableParallelism } = require('node:os');
const { Pool, types } = require('pg');
const Big = require('big.js');
const { parseCookie } = require('cookie');
const { version } = require('../package.json');
const {
  AGGREGATE,
  LIST,
  LARGE_AGGREGATE,
  LARGE_LIST_STATUSES,
  largeList,
} = require('./fetch-queries');
const { PlainDispatcher, writeLog } = require('./plain-log');

// As the app (src/database/pg-types.ts): int8 leaves as a JSON number.
types.setTypeParser(20, (text) => {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
});

const env = process.env;
/** PLAIN_LOG=1: a create writes the change log's rows too (bench/plain-log.js). */
const LOG = env.PLAIN_LOG === '1';
const pool = new Pool({
  connectionString: env.DATABASE_URL,
  max: Number(env.DATABASE_POOL_SIZE || Math.min(10, 2 * availableParallelism() + 1)),
});
pool.on('error', () => {});

class HttpError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

const sha256 = (value) => createHash('sha256').update(value).digest('hex');

// ---- Who is asking ---------------------------------------------------------------------
const USER_COLUMNS = `u.key, u.user_name, u.full_name, u.id_organization, u.id_business_unit`;
const apiKeys = new Map();

async function userOfApiKey(secret) {
  const hash = sha256(secret);
  let user = apiKeys.get(hash);
  if (!user) {
    const { rows } = await pool.query(
      `SELECT ${USER_COLUMNS}, k.key AS api_key FROM api_key k JOIN "user" u ON u.key = k.id_user
        WHERE k.secret_hash = $1 AND k.revoked_at IS NULL AND u.active
          AND (k.expires_at IS NULL OR k.expires_at > now())`,
      [hash],
    );
    user = rows[0];
    if (user) apiKeys.set(hash, user);
  }
  return user;
}

async function userOfSession(token) {
  const { rows } = await pool.query(
    `SELECT ${USER_COLUMNS} FROM session s JOIN "user" u ON u.key = s.id_user
      WHERE s.token_hash = $1 AND s.expires_at > now() AND u.active`,
    [sha256(token)],
  );
  return rows[0];
}

async function userOf(request) {
  const apiKey = request.headers['x-api-key'];
  if (apiKey) return userOfApiKey(apiKey);
  const cookie =
    request.headers.cookie && parseCookie(request.headers.cookie)['svc.rest.auth.token'];
  return cookie ? userOfSession(cookie) : undefined;
}

async function signedIn(request) {
  const user = await userOf(request);
  if (!user) throw new HttpError(401, 'Authentication required');
  return user;
}

// ---- Bodies ----------------------------------------------------------------------------
async function readText(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function readJson(request) {
  try {
    return JSON.parse(await readText(request));
  } catch {
    throw new HttpError(400, 'The body is not JSON');
  }
}

function sendJson(response, status, value) {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

// ---- Routes ----------------------------------------------------------------------------
async function auth(request, response) {
  const user = await userOf(request);
  const info = {
    clientAdress: request.socket.remoteAddress ?? '',
    oidcIssuer: '',
    name: env.SERVER_NAME || 'Atrium',
    isSecure: false,
    version,
  };
  if (!user) return sendJson(response, 200, info);
  sendJson(response, 200, {
    ...info,
    userName: user.user_name,
    userFullName: user.full_name,
    userKey: user.key,
    userBusinessUnitKey: user.id_business_unit,
    userOrganizationKey: user.id_organization,
  });
}

async function readInvoice(request, response, keyText) {
  const user = await signedIn(request);
  if (!/^(0|[1-9]\d*)$/.test(keyText)) throw new HttpError(400, 'The key is not a number');
  const { rows } = await pool.query(
    'SELECT * FROM invoice WHERE key = $1 AND id_organization = $2',
    [keyText, user.id_organization],
  );
  if (!rows[0]) throw new HttpError(404, `invoice ${keyText} not found`);
  const lines = await pool.query(
    'SELECT * FROM invoice_line WHERE id_invoice = $1 AND id_organization = $2 ORDER BY key',
    [keyText, user.id_organization],
  );
  sendJson(response, 200, {
    entity_name: 'invoice',
    properties: rows[0],
    children: {
      invoice_invoice_line: lines.rows.map((line) => ({
        entity_name: 'invoice_line',
        properties: line,
        children: {},
      })),
    },
  });
}

const isKey = (value) => Number.isSafeInteger(value) && value > 0;
const DECIMAL = /^-?\d{1,12}(\.\d{1,2})?$/;

async function createInvoice(request, response) {
  const user = await signedIn(request);
  const { properties = {}, children = {} } = (await readJson(request)) ?? {};
  const lines = (children.invoice_invoice_line ?? []).map((line) => line.properties ?? {});
  if (!isKey(properties.id_account)) throw new HttpError(400, 'id_account must be a key');
  let total = new Big(0);
  const amounts = lines.map((line, index) => {
    const { quantity, unit_price: price, id_product: product } = line;
    if (!Number.isInteger(quantity) || quantity <= 0 || !DECIMAL.test(String(price))) {
      throw new HttpError(400, `line ${index}: quantity and unit_price are required`);
    }
    if (product != null && !isKey(product)) throw new HttpError(400, `line ${index}: id_product`);
    const amount = new Big(String(price)).times(quantity);
    total = total.plus(amount);
    return amount.toFixed(2);
  });
  const owner = [user.id_organization, user.id_business_unit, user.key];
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const invoice = await client.query(
      `INSERT INTO invoice (id_account, currency, total, id_organization, id_business_unit, id_user)
       SELECT key, $2, $3, $4, $5, $6 FROM account WHERE key = $1 AND id_organization = $4
       RETURNING ${LOG ? '*' : 'key'}`,
      [properties.id_account, properties.currency ?? null, total.toFixed(2), ...owner],
    );
    if (!invoice.rows[0]) throw new HttpError(400, 'No such account');
    const key = invoice.rows[0].key;
    let lineRows = [];
    if (lines.length > 0) {
      const values = [];
      const tuples = lines.map((line, i) => {
        values.push(
          line.id_product ?? null,
          line.description ?? null,
          line.quantity,
          line.unit_price,
          amounts[i],
        );
        const at = values.length - 4;
        return `($${at}::int8, $${at + 1}, $${at + 2}::int4, $${at + 3}::numeric, $${at + 4}::numeric)`;
      });
      const fixed = values.length;
      values.push(key, ...owner);
      const inserted = await client.query(
        `INSERT INTO invoice_line (id_product, description, quantity, unit_price, amount,
                                   id_invoice, id_organization, id_business_unit, id_user)
         SELECT v.*, $${fixed + 1}::int8, $${fixed + 2}::int8, $${fixed + 3}::int8, $${fixed + 4}::int8
           FROM (VALUES ${tuples.join(', ')}) v(id_product, description, quantity, unit_price, amount)
          WHERE v.id_product IS NULL OR EXISTS (SELECT 1 FROM product p
                  WHERE p.key = v.id_product AND p.id_organization = $${fixed + 2})
         RETURNING ${LOG ? '*' : 'key'}`,
        values,
      );
      if (inserted.rowCount !== lines.length) throw new HttpError(400, 'No such product');
      lineRows = inserted.rows;
    }
    if (LOG) {
      const actor = { user, apiKey: user.api_key, requestId: randomUUID() };
      await writeLog(client, actor, invoice.rows[0], lineRows);
    }
    await client.query('COMMIT');
    dispatcher?.wake();
    sendJson(response, 200, { operation: 'insert', key });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** The SQL of each benchmarked FETCH text; $1 is the caller's organization. */
const FETCH_SQL = {
  [LIST]: {
    sql: `SELECT i.number, i.status, i.total, i.issue_date, a.name AS "a.name", a.country AS "a.country"
            FROM invoice i JOIN account a ON a.key = i.id_account
           WHERE i.id_organization = $1 AND i.status IN ('issued', 'paid') AND i.total > 100
           ORDER BY i.issue_date DESC, i.key LIMIT 50`,
  },
  [AGGREGATE]: {
    sql: `SELECT status, to_char(date_trunc('month', issue_date AT TIME ZONE 'UTC'), 'YYYY-MM') AS month,
                 count(*) AS invoices, sum(total) AS revenue
            FROM invoice WHERE id_organization = $1
           GROUP BY 1, 2 ORDER BY 2, 1`,
  },
  [LARGE_AGGREGATE]: {
    sql: `SELECT i.status, count(*) AS invoices, sum(i.total) AS revenue
            FROM invoice i JOIN account a ON a.key = i.id_account
           WHERE i.id_organization = $1 AND a.name LIKE 'A%'
           GROUP BY i.status ORDER BY i.status`,
  },
  ...Object.fromEntries(
    LARGE_LIST_STATUSES.map((status) => [
      largeList(status),
      {
        sql: `SELECT i.number, i.status, i.total, a.name AS "a.name"
                FROM invoice i JOIN account a ON a.key = i.id_account
               WHERE i.id_organization = $1 AND i.status = $2
               ORDER BY i.total DESC, i.key LIMIT 50`,
        params: [status],
      },
    ]),
  ),
};

async function runFetch(request, response) {
  const user = await signedIn(request);
  const query = FETCH_SQL[await readText(request)];
  if (!query) throw new HttpError(400, 'The plain server knows only the benchmarked queries');
  const { rows } = await pool.query(query.sql, [user.id_organization, ...(query.params ?? [])]);
  sendJson(response, 200, rows);
}

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

async function invoicingSummary(request, response) {
  const user = await signedIn(request);
  const { accountKey, from, to } = (await readJson(request)) ?? {};
  if (!isKey(accountKey) || ![from, to].every((at) => DATETIME.test(at))) {
    throw new HttpError(400, 'accountKey, from and to are required');
  }
  const { rows } = await pool.query(
    `SELECT count(i.key) AS count, sum(i.total) AS total
       FROM account a LEFT JOIN invoice i ON i.id_account = a.key
        AND (i.issue_date BETWEEN $3 AND $4 OR i.date_created BETWEEN $3 AND $4)
      WHERE a.key = $1 AND a.id_organization = $2 GROUP BY a.key`,
    [accountKey, user.id_organization, `${from}Z`, `${to}Z`],
  );
  if (!rows[0]) throw new HttpError(404, `account ${accountKey} not found`);
  sendJson(response, 200, { count: rows[0].count, total: rows[0].total ?? '0.00' });
}

const ROUTES = {
  'GET /health': (_request, response) => sendJson(response, 200, { status: 'ok' }),
  'GET /auth': auth,
  'POST /rest/entity/invoice': createInvoice,
  'POST /rest/fetch': runFetch,
  'POST /rest/workflow/invoicing/summary': invoicingSummary,
};
const INVOICE_PATH = /^\/rest\/entity\/invoice\/([^/]+)$/;
const ACCOUNT_PATH = /^\/rest\/entity\/account\/([^/]+)$/;

/** POST /rest/entity/account/{key}: a new e-mail, one UPDATE. */
async function renameAccount(request, response, key) {
  const user = await signedIn(request);
  const { properties = {} } = (await readJson(request)) ?? {};
  if (!/^[1-9]\d{0,15}$/.test(key)) throw new HttpError(400, 'key must be a key');
  if (typeof properties.email !== 'string') throw new HttpError(400, 'email is required');
  const { rows } = await pool.query(
    `UPDATE account SET email = $1, date_updated = now() WHERE key = $2 AND id_organization = $3
     RETURNING key`,
    [properties.email, key, user.id_organization],
  );
  if (!rows[0]) throw new HttpError(404, `account ${key} not found`);
  sendJson(response, 200, { operation: 'update', key: Number(rows[0].key) });
}

const server = http.createServer((request, response) => {
  const path = (request.url ?? '/').split('?', 1)[0];
  const invoice = request.method === 'GET' && INVOICE_PATH.exec(path);
  const account = request.method === 'POST' && ACCOUNT_PATH.exec(path);
  const route = invoice
    ? (req, res) => readInvoice(req, res, invoice[1])
    : account
      ? (req, res) => renameAccount(req, res, account[1])
      : ROUTES[`${request.method} ${path}`];
  if (!route) return sendJson(response, 404, { detail: `Cannot ${request.method} ${path}` });
  Promise.resolve(route(request, response)).catch((error) => {
    if (!(error instanceof HttpError)) console.error(error);
    if (response.headersSent) return response.destroy();
    sendJson(response, error.status ?? 500, {
      detail: error.status ? error.message : 'Internal server error',
    });
  });
});

/**
 * PLAIN_WEBHOOK_URL (with PLAIN_LOG=1 and PLAIN_WEBHOOK_SECRET): the change log's rows
 * delivered there by a plain dispatcher (bench/plain-log.js).
 */
const dispatcher = env.PLAIN_WEBHOOK_URL
  ? new PlainDispatcher(pool, { url: env.PLAIN_WEBHOOK_URL, secret: env.PLAIN_WEBHOOK_SECRET })
  : undefined;

Promise.resolve(dispatcher?.start()).then(() =>
  server.listen(Number(env.PORT || 3002), env.HOST || '127.0.0.1'),
);
const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
