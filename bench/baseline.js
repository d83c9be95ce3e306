'use strict';
/**
 * The benchmark's baseline: a bare node:http + pg server answering the benchmarked
 * routes with the same SQL (prepared where the app prepares it) and the same JSON as the
 * app, and nothing else (no Nest,
 * Express, Passport, helmet, pino, CLS, TypeORM). Honest by construction: every request
 * does the same database work the app does; only the framework cost is left out.
 *
 * Keep it in step with the app: the SQL below is copied from
 *   src/auth/session.service.ts   SessionService.resolve / rotate
 *   src/auth/api-key.service.ts   ApiKeyService.resolve (+ its Map cache, same TTL)
 *   src/auth/identity.mapper.ts   IDENTITY_USER_COLUMNS, identityOf
 *   src/entity/entity.store.ts    findOne, findChildren, existingKeys, insert (built the
 *                                 same way from the column lists of invoice/invoice_line)
 * and the JSON from src/auth/server-info.service.ts and src/entity (the 2.2 envelope,
 * etagOf, the write result); the invoice rules from src/demo/hooks. bench/run.js checks it: the
 * statements both servers send are compared on the wire, and every response body too. A scenario added to
 * bench/scenarios.js needs its route here as well (see ROUTES at the bottom).
 *
 * Run by bench/run.js as a child process; env: DATABASE_URL, PORT, HOST, and the same
 * settings the app reads (DATABASE_POOL_SIZE, SESSION_*, API_KEY_CACHE_SECONDS, SERVER_NAME).
 *
 * BASELINE_SQL=best (bench/run.js sets it with BENCH_DATA=large): instead of the app's
 * statements, the best SQL a person would write by hand for the same answers, from the
 * same tables: POST /rest/entity/invoice checks the account and the products inside its
 * two INSERTs (no lookup SELECTs before them), and POST /rest/fetch runs the hand-written
 * statements of bench/fetch-queries.js (HAND_WRITTEN) for the large data set's queries.
 * The read of an invoice stays the app's two SELECTs: nothing simpler answers it.
 */
const http = require('node:http');
const { createHash, randomBytes } = require('node:crypto');
const { availableParallelism } = require('node:os');
const { Pool, types } = require('pg');
const Big = require('big.js');
const { parseCookie, stringifySetCookie } = require('cookie');
const { version } = require('../package.json');
const {
  COMPILED: FETCH_COMPILED,
  HAND_WRITTEN: FETCH_HAND_WRITTEN,
  SqlParameters,
} = require('./fetch-queries');

// As src/database/pg-types.ts: int8 keys leave the API as JSON numbers.
types.setTypeParser(20, (text) => {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
});

const env = process.env;
const int = (name, fallback) => (env[name] ? Number(env[name]) : fallback);
const PORT = int('PORT', 3001);
const HOST = env.HOST || '127.0.0.1';
const SERVER_NAME = env.SERVER_NAME || 'Atrium';
const POOL_SIZE = int('DATABASE_POOL_SIZE', Math.min(10, 2 * availableParallelism() + 1)); // the app's default
const IDLE_SECONDS = int('SESSION_IDLE_MINUTES', 30) * 60;
const ROTATE_SECONDS = int('SESSION_ROTATE_MINUTES', 15) * 60;
const API_KEY_CACHE_MS = int('API_KEY_CACHE_SECONDS', 5) * 1000;
const BEST_SQL = env.BASELINE_SQL === 'best';
// Constants of the app's services.
const TOUCH_INTERVAL_SECONDS = 30;
const ROTATION_GRACE_SECONDS = 60;
const MAX_CACHED_KEYS = 10_000;
const AUTH_TOKEN_COOKIE = 'svc.rest.auth.token';
const API_KEY_HEADER = 'x-api-key';
const API_KEY_QUERY = 'apiKey';

const pool = new Pool({
  connectionString: env.DATABASE_URL,
  max: POOL_SIZE,
  connectionTimeoutMillis: 10_000,
});
pool.on('error', () => {}); // an idle client's error: pg-pool drops the client

const sha256 = (value) => createHash('sha256').update(value).digest('hex');

// As src/database/statements.ts: the statements the app prepares (the repositories' and
// the engine's; not FETCH's) are named statements here too.
const statementNames = new Map();
const prepared = (text, values) => {
  if (!statementNames.has(text)) statementNames.set(text, `baseline_${statementNames.size + 1}`);
  return { name: statementNames.get(text), text, values };
};
const newSecret = () => randomBytes(32).toString('base64url');

// ---- SessionService.resolve: the same statement, the same parameters ----------------
// src/auth/identity.mapper.ts: IDENTITY_USER_COLUMNS and identityOf.
const IDENTITY_USER_COLUMNS = `u.key, u.user_name AS "userName", u.full_name AS "fullName",
  u.id_organization AS "idOrganization", u.id_business_unit AS "idBusinessUnit", u.is_admin AS "isAdmin"`;

function identityOf(user, authMethod, locale, session) {
  return {
    userKey: user.key,
    userName: user.userName,
    userFullName: user.fullName,
    organizationKey: user.idOrganization,
    businessUnitKey: user.idBusinessUnit,
    isAdmin: user.isAdmin,
    locale,
    authMethod,
    ...(session ? { session } : {}),
  };
}

const SESSION_SQL = `WITH found AS (
         SELECT s.key AS "sessionKey", s.csrf_token AS "csrfToken", s.auth_method AS "authMethod",
                s.locale, s.token_hash = $1 AS "isCurrentToken",
                s.rotated_at < now() - make_interval(secs => $3) AS "needsRotation",
                s.last_seen_at < now() - make_interval(secs => $4) AS "needsTouch",
                s.oidc_provider AS "oidcProvider", s.refresh_token AS "refreshToken",
                s.access_expires_at <= now() AS "accessExpired",
                ${IDENTITY_USER_COLUMNS}
           FROM session s JOIN "user" u ON u.key = s.id_user
          WHERE (s.token_hash = $1 OR (s.previous_token_hash = $1 AND s.previous_valid_until > now()))
            AND s.expires_at > now()
            AND s.last_seen_at > now() - make_interval(secs => $2)
            AND u.active
            -- An OpenID session ends with its access token, unless a refresh token renews it.
            AND (s.access_expires_at IS NULL OR s.access_expires_at > now() OR s.refresh_token IS NOT NULL)
       ), touched AS (
         UPDATE session SET last_seen_at = now()
          WHERE key = (SELECT "sessionKey" FROM found WHERE "needsTouch")
       )
       SELECT * FROM found`;

const ROTATE_SQL = `UPDATE session
          SET previous_token_hash = token_hash,
              previous_valid_until = now() + make_interval(secs => $4),
              token_hash = $3, rotated_at = now()
        WHERE key = $1 AND token_hash = $2`;

async function resolveSession(token, response) {
  const { rows } = await pool.query(
    prepared(SESSION_SQL, [sha256(token), IDLE_SECONDS, ROTATE_SECONDS, TOUCH_INTERVAL_SECONDS]),
  );
  const row = rows[0];
  if (!row) return undefined;
  const identity = identityOf(row, row.authMethod, row.locale, {
    key: row.sessionKey,
    csrfToken: row.csrfToken,
  });
  if (row.isCurrentToken && row.needsRotation) {
    const next = newSecret();
    const { rowCount } = await pool.query(
      prepared(ROTATE_SQL, [row.sessionKey, sha256(token), sha256(next), ROTATION_GRACE_SECONDS]),
    );
    if (rowCount === 1) {
      response.appendHeader(
        'Set-Cookie',
        stringifySetCookie(AUTH_TOKEN_COOKIE, next, {
          path: '/',
          secure: true,
          httpOnly: true,
          sameSite: 'lax',
        }),
      );
    }
  }
  return identity;
}

// ---- ApiKeyService.resolve: the same Map cache in front of the same statement --------
const API_KEY_SQL = `UPDATE api_key k SET last_used_at = now()
         FROM "user" u
        WHERE k.secret_hash = $1 AND u.key = k.id_user AND u.active
          AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
      RETURNING k.key AS "apiKeyId", k.expires_at AS "expiresAt", u.locale, ${IDENTITY_USER_COLUMNS}`;

const apiKeyCache = new Map();

async function resolveApiKey(secret) {
  const hash = sha256(secret);
  const cached = apiKeyCache.get(hash);
  if (cached && cached.validUntil > Date.now()) return cached.identity;
  apiKeyCache.delete(hash);

  const { rows } = await pool.query(prepared(API_KEY_SQL, [hash]));
  const row = rows[0];
  if (!row) return undefined;
  const identity = identityOf(row, 'api-key', row.locale);
  if (API_KEY_CACHE_MS > 0) {
    if (apiKeyCache.size >= MAX_CACHED_KEYS) apiKeyCache.clear();
    const expiry = row.expiresAt ? row.expiresAt.getTime() : Infinity;
    apiKeyCache.set(hash, {
      apiKeyId: row.apiKeyId,
      identity,
      validUntil: Math.min(Date.now() + API_KEY_CACHE_MS, expiry),
    });
  }
  return identity;
}

/** The chain in its default order (AUTH_STRATEGIES=api-key,session,refresh). */
async function authenticate(request, response, query) {
  const apiKey = request.headers[API_KEY_HEADER] ?? query?.get(API_KEY_QUERY) ?? undefined;
  if (apiKey) {
    const identity = await resolveApiKey(apiKey);
    if (identity) return identity;
  }
  const header = request.headers.cookie;
  const token = header ? parseCookie(header)[AUTH_TOKEN_COOKIE] : undefined;
  if (token) return resolveSession(token, response);
  return undefined;
}

// ---- ServerInfoService.describe ------------------------------------------------------
function describe(request, identity) {
  const info = {
    clientAdress: request.socket.remoteAddress ?? '',
    oidcIssuer: '',
    name: SERVER_NAME,
    isSecure: false,
    version,
  };
  if (!identity) return info;
  return {
    ...info,
    userName: identity.userName,
    userFullName: identity.userFullName,
    userKey: identity.userKey,
    userBusinessUnitKey: identity.businessUnitKey,
    userOrganizationKey: identity.organizationKey,
  };
}

// ---- The entity engine, for invoice / invoice_line only ------------------------------
// The registry's view of the two types (src/model/entity.registry.ts from the entities in
// src/demo/entities): API name = column name, in TypeORM's column order, which is the
// order of the SELECT lists and of a read's properties.
const system = (type) => ({ type, origin: 'system' });
const SYSTEM_PROPERTIES = {
  key: system('bigint'),
  id_organization: system('bigint'),
  id_business_unit: system('bigint'),
  id_user: system('bigint'),
  uuid: system('uuid'),
  date_created: system('datetime'),
  date_updated: system('datetime'),
  extended: system('integer'),
};
const INVOICE_LINE = {
  name: 'invoice_line',
  properties: new Map(
    Object.entries({
      ...SYSTEM_PROPERTIES,
      id_invoice: { type: 'bigint', origin: 'parent' },
      id_product: { type: 'bigint', origin: 'client', nullable: true, lookup: 'product' },
      description: { type: 'string', origin: 'client', nullable: true, length: 500 },
      quantity: { type: 'integer', origin: 'client', required: true },
      unit_price: { type: 'decimal', origin: 'client', required: true, precision: 14, scale: 2 },
      amount: { type: 'decimal', origin: 'computed', precision: 14, scale: 2 },
    }),
  ),
  childGroups: [],
};
const INVOICE = {
  name: 'invoice',
  properties: new Map(
    Object.entries({
      ...SYSTEM_PROPERTIES,
      number: { type: 'string', origin: 'client', nullable: true, length: 50 },
      id_account: { type: 'bigint', origin: 'client', required: true, lookup: 'account' },
      status: {
        type: 'string',
        origin: 'client',
        values: ['draft', 'issued', 'paid', 'cancelled'],
        sqlType: 'invoice_status_enum', // for BEST_SQL's typed parameters
      },
      issue_date: { type: 'datetime', origin: 'client', nullable: true },
      currency: { type: 'string', origin: 'client', nullable: true, length: 3 },
      total: { type: 'decimal', origin: 'computed', precision: 14, scale: 2 },
    }),
  ),
  childGroups: [{ name: 'invoice_invoice_line', child: INVOICE_LINE, parentColumn: 'id_invoice' }],
};
const LOOKUP_TYPES = { account: { name: 'account' }, product: { name: 'product' } };

/**
 * src/access/access.scope.ts, for the baseline's two kinds of caller: the administrator
 * reaches its organization; any other caller is the bench's user whose roles give every
 * type at business_unit_tree depth, so it reaches its unit and the units below. The unit
 * tree is cached per unit, as the app caches it; the baseline reads no roles (the app
 * reads them once per user, then holds them).
 */
const unitTrees = new Map();
const UNIT_TREE_SQL = `WITH RECURSIVE tree AS (
         SELECT key FROM business_unit WHERE key = $1 AND id_organization = $2
         UNION
         SELECT b.key FROM business_unit b JOIN tree t ON b.id_parent_business_unit = t.key
       ) SELECT key FROM tree`;

async function scopeOf(identity) {
  if (identity.isAdmin) return { identity };
  let tree = unitTrees.get(identity.businessUnitKey);
  if (!tree) {
    tree = pool
      .query(prepared(UNIT_TREE_SQL, [identity.businessUnitKey, identity.organizationKey]))
      .then(({ rows }) => rows.map((row) => Number(row.key)));
    unitTrees.set(identity.businessUnitKey, tree);
  }
  return { identity, unitTree: await tree };
}

/** AccessScope.rows: the rows of a table alias the caller reaches. */
function rowsSql(scope, alias, params) {
  const column = (name) => `${alias}.${quote(name)}`;
  const organization = `${column('id_organization')} = ${params.bind(scope.identity.organizationKey, 'int8')}`;
  if (!scope.unitTree) return organization;
  return `${organization} AND ${column('id_business_unit')} = ANY(${params.bind(scope.unitTree, 'int8[]')})`;
}

// src/entity/entity.store.ts: the same statements, built the same way.
const quote = (identifier) => `"${identifier.replace(/"/g, '""')}"`;
const selectList = (type) => [...type.properties.keys()].map(quote).join(', ');

function findInvoice(key, scope) {
  const params = new SqlParameters();
  const sql = `SELECT ${selectList(INVOICE)} FROM ${quote(INVOICE.name)} t
        WHERE t.key = ${params.bind(key, 'int8')} AND ${rowsSql(scope, 't', params)}`;
  return [sql, params.values];
}
function findLines(invoiceKeys, scope) {
  const params = new SqlParameters();
  const sql = `SELECT ${selectList(INVOICE_LINE)} FROM ${quote(INVOICE_LINE.name)} t
        WHERE t.${quote('id_invoice')} = ANY(${params.bind(invoiceKeys, 'int8[]')})
          AND ${rowsSql(scope, 't', params)} ORDER BY t.key`;
  return [sql, params.values];
}
function readableKeys(type, keys, scope) {
  const params = new SqlParameters();
  const sql = `SELECT t.key FROM ${quote(type.name)} t
        WHERE t.key = ANY(${params.bind(keys, 'int8[]')}) AND ${rowsSql(scope, 't', params)}`;
  return [sql, params.values];
}

/**
 * EntityStore.insert: one multi-row INSERT, keys returned in order. With `guard` (the
 * lookups of a new record, and the caller's scope), the row goes in only if each target's
 * keys are all rows the caller reads: the same statement as the app's, typed parameters.
 */
async function insertRows(client, type, rows, owner, guard) {
  if (rows.length === 0) return [];
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((c) =>
    type.properties.has(c),
  );
  const params = new SqlParameters();
  const bind = (value, cast) => params.bind(value, guard && cast);
  const tuples = rows.map((row) => {
    const cells = columns.map((c) =>
      c in row ? bind(row[c], castTypeOf(type.properties.get(c))) : 'DEFAULT',
    );
    const owners = [owner.organizationKey, owner.businessUnitKey, owner.userKey];
    return `(${[...cells, ...owners.map((key) => bind(key, 'int8'))].join(', ')})`;
  });
  const names = [...columns, 'id_organization', 'id_business_unit', 'id_user'].map(quote);
  let source = `VALUES ${tuples.join(', ')}`;
  if (guard) {
    const readable = guard.targets.map(
      ({ target, keys }) =>
        `(SELECT count(*) FROM ${quote(target)} t WHERE t.key = ANY(${params.bind(keys, 'int8[]')})
              AND ${rowsSql(guard.scope, 't', params)}) = ${params.bind(keys.length, 'int8')}`,
    );
    source = `SELECT * FROM (${source}) v WHERE ${readable.join(' AND ') || 'true'}`;
  }
  const { rows: inserted } = await client.query(
    prepared(
      `INSERT INTO ${quote(type.name)} (${names.join(', ')}) ${source} RETURNING key`,
      params.values,
    ),
  );
  return inserted.map((row) => row.key);
}

/** The registry's castType: the enum's own type (quoted), else the property type's. */
const castTypeOf = (property) =>
  property.sqlType ? quote(property.sqlType) : SQL_TYPES[property.type];

/** Timestamps leave as ISO 8601 text. */
function normalise(row) {
  for (const [name, value] of Object.entries(row)) {
    if (value instanceof Date) row[name] = value.toISOString();
  }
  return row;
}

class HttpError extends Error {
  constructor(status, body) {
    super(body.detail);
    this.status = status;
    this.body = body;
  }
}
const invalid = (path, problem) => new HttpError(400, { detail: `${path}: ${problem}` });

// src/model/property-value.ts: coerceValue, for the types the two entities use.
const DECIMAL = /^-?\d+(\.\d+)?$/;
const INTEGER_TEXT = /^-?\d+$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const INT4_MAX = 2 ** 31 - 1;
const INT8_MAX = 2n ** 63n - 1n;

function coerceValue(property, value) {
  if (value === null) return property.nullable ? { value: null } : { problem: 'must not be null' };
  switch (property.type) {
    case 'string':
      if (typeof value !== 'string') return { problem: 'expected a string' };
      if (property.values && !property.values.includes(value)) {
        return { problem: `must be one of ${property.values.join(', ')}` };
      }
      if (property.length && value.length > property.length) {
        return { problem: `is longer than ${property.length} characters` };
      }
      return { value };
    case 'integer':
      return Number.isInteger(value) && Math.abs(value) <= INT4_MAX
        ? { value }
        : { problem: 'expected an integer' };
    case 'bigint': {
      if (Number.isSafeInteger(value)) return { value };
      if (typeof value === 'string' && INTEGER_TEXT.test(value)) {
        const big = BigInt(value);
        if (big <= INT8_MAX && big >= -INT8_MAX - 1n) return { value };
      }
      return { problem: 'expected an integer' };
    }
    case 'decimal': {
      const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
      if (typeof text !== 'string' || !DECIMAL.test(text)) {
        return { problem: 'expected a decimal number, e.g. "12.50"' };
      }
      const [whole, fraction = ''] = text.replace('-', '').split('.');
      const { precision, scale = 0 } = property;
      if (whole.replace(/^0+/, '').length > precision - scale) {
        return { problem: `has more than ${precision - scale} digits before the decimal point` };
      }
      if (fraction.length > scale) return { problem: `has more than ${scale} decimal places` };
      return { value: text };
    }
    case 'datetime':
      return typeof value === 'string' && DATETIME.test(value) && !Number.isNaN(Date.parse(value))
        ? { value }
        : { problem: 'expected an ISO 8601 date-time with an offset, e.g. 2026-01-31T12:00:00Z' };
    default:
      return { problem: `unsupported type ${property.type}` };
  }
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** src/entity/entity.input.ts parseEnvelope, create mode. */
function parseEnvelope(type, body, path = type.name) {
  if (!isObject(body)) throw invalid(path, 'expected an object with "properties"');
  if (body.entity_name !== undefined && body.entity_name !== type.name) {
    throw invalid(path, `entity_name is "${String(body.entity_name)}", expected "${type.name}"`);
  }
  const rawProperties = body.properties ?? {};
  if (!isObject(rawProperties)) throw invalid(`${path}.properties`, 'expected an object');
  const rawChildren = body.children ?? {};
  if (!isObject(rawChildren)) throw invalid(`${path}.children`, 'expected an object');
  const properties = {};
  for (const [name, value] of Object.entries(rawProperties)) {
    const property = type.properties.get(name);
    if (!property) throw invalid(`${path}.${name}`, `${type.name} has no property "${name}"`);
    if (property.origin !== 'client') continue; // key, system, computed: the server's
    const coerced = coerceValue(property, value);
    if ('problem' in coerced) throw invalid(`${path}.${name}`, coerced.problem);
    properties[name] = coerced.value;
  }
  for (const [name, property] of type.properties) {
    if (property.required && property.origin === 'client' && !(name in properties)) {
      throw invalid(`${path}.${name}`, 'is required');
    }
  }
  const children = {};
  for (const [groupName, list] of Object.entries(rawChildren)) {
    const group = type.childGroups.find((g) => g.name === groupName);
    if (!group) throw invalid(`${path}.children.${groupName}`, 'unknown child group');
    if (!Array.isArray(list)) throw invalid(`${path}.children.${groupName}`, 'expected an array');
    children[groupName] = list.map((child, index) =>
      parseEnvelope(group.child, child, `${groupName}[${index}]`),
    );
  }
  return { entity_name: type.name, properties, children };
}

/** src/entity/lookups.ts checkLookups: one query per target type. */
/** The lookups a record sets, children included, with the path an error names. */
function lookupUses(type, record) {
  const uses = [];
  const collect = (t, r, path) => {
    for (const [name, value] of Object.entries(r.properties)) {
      const lookup = t.properties.get(name)?.lookup;
      if (lookup && value !== null && value !== undefined) {
        uses.push({ path: `${path}.${name}`, target: lookup, key: Number(value) });
      }
    }
    for (const group of t.childGroups) {
      for (const [index, child] of (r.children[group.name] ?? []).entries()) {
        collect(group.child, child, `${group.name}[${index}]`);
      }
    }
  };
  collect(type, record, type.name);
  return uses;
}

/** Per target type, in order of first use: its distinct keys (src/entity/lookups.ts). */
function lookupTargets(uses) {
  const byTarget = new Map();
  for (const use of uses) byTarget.set(use.target, [...(byTarget.get(use.target) ?? []), use]);
  return [...byTarget].map(([target, targetUses]) => ({
    target,
    uses: targetUses,
    keys: [...new Set(targetUses.map((u) => u.key))],
  }));
}

/** Lookups.check: one query per target, 400 naming the first use not found. */
async function checkLookups(client, type, record, scope) {
  for (const { target, uses, keys } of lookupTargets(lookupUses(type, record))) {
    const { rows } = await client.query(
      prepared(...readableKeys(LOOKUP_TYPES[target], keys, scope)),
    );
    const existing = new Set(rows.map((row) => row.key));
    const missing = uses.find((use) => !existing.has(use.key));
    if (missing) throw invalid(missing.path, `no ${target} with key ${missing.key}`);
  }
}

/** src/demo/hooks: line amount = quantity × unit_price, total = sum (children first). */
function runInvoiceHooks(invoice) {
  const lines = invoice.children.invoice_invoice_line ?? [];
  for (const [index, line] of lines.entries()) {
    const { quantity, unit_price: unitPrice } = line.properties;
    if (typeof quantity !== 'number' || quantity <= 0) {
      throw new HttpError(424, {
        eventName: 'onBeforeInsert',
        entityName: 'invoice',
        propertyName: 'invoice_invoice_line',
        childEntityName: 'invoice_line',
        childPropertyName: 'quantity',
        childEntityIndex: index,
        detail: 'The quantity must be greater than 0',
      });
    }
    line.properties.amount = new Big(String(unitPrice)).times(quantity).toFixed(2);
  }
  invoice.properties.total = lines
    .reduce((sum, line) => sum.plus(String(line.properties.amount)), new Big(0))
    .toFixed(2);
}

/** The columns a write sets (EntityWriter columnsOf): client and computed ones. */
function columnsOf(type, record) {
  return Object.fromEntries(
    Object.entries(record.properties).filter(([name]) => {
      const origin = type.properties.get(name)?.origin;
      return name === 'key' || origin === 'client' || origin === 'computed';
    }),
  );
}

/** GET /rest/entity/invoice/:key: EntityService.read, the 2.2 envelope and its ETag. */
async function readInvoice(request, response, key) {
  const identity = await authenticate(request, response);
  if (!identity) throw new HttpError(401, { detail: 'Authentication required' });
  if (!/^-?\d+$/.test(key)) {
    throw new HttpError(400, { detail: 'Validation failed (numeric string is expected)' });
  }
  const scope = await scopeOf(identity);
  const { rows } = await pool.query(prepared(...findInvoice(Number(key), scope)));
  if (!rows[0]) throw new HttpError(404, { detail: `invoice ${key} not found` });
  const invoice = { entity_name: 'invoice', properties: normalise(rows[0]), children: {} };
  const lines = await pool.query(prepared(...findLines([invoice.properties.key], scope)));
  invoice.children.invoice_invoice_line = lines.rows.map((row) => ({
    entity_name: 'invoice_line',
    properties: normalise(row),
    children: {},
  }));
  const body = JSON.stringify(invoice);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  response.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ETag: etag,
  });
  response.end(body);
}

const BODY_LIMIT = 1024 * 1024; // the app's BODY_LIMIT default

function readBody(request) {
  return new Promise((resolvePromise, reject) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        reject(
          new HttpError(413, { detail: 'The request body is larger than the server accepts' }),
        );
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolvePromise(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The request body as JSON: 400 when it is not, 413 when too large. */
async function readJson(request) {
  try {
    return JSON.parse(await readBody(request));
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, { detail: 'The request body could not be parsed' });
  }
}

/** POST /rest/entity/invoice: EntityService.create with the demo hooks, one transaction. */
async function createInvoice(request, response) {
  const identity = await authenticate(request, response);
  if (!identity) throw new HttpError(401, { detail: 'Authentication required' });
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    throw new HttpError(415, { detail: 'Content-Type must be application/json' });
  }
  const body = await readJson(request);
  const invoice = parseEnvelope(INVOICE, body);
  if (BEST_SQL) {
    runInvoiceHooks(invoice);
    const key = await insertInvoiceChecked(invoice, identity, await scopeOf(identity));
    return sendJson(response, 200, { operation: 'insert', key });
  }
  const client = await pool.connect();
  let key;
  try {
    await client.query('START TRANSACTION');
    const scope = await scopeOf(identity);
    const guard = { scope, targets: lookupTargets(lookupUses(INVOICE, invoice)) };
    try {
      runInvoiceHooks(invoice);
    } catch (error) {
      // As the app: a missing lookup is the answer before a hook's refusal.
      await checkLookups(client, INVOICE, invoice, scope);
      throw error;
    }
    [key] = await insertRows(client, INVOICE, [columnsOf(INVOICE, invoice)], identity, guard);
    if (key === undefined) {
      await checkLookups(client, INVOICE, invoice, scope);
      throw new HttpError(409, { detail: 'A record this invoice points at changed' });
    }
    const lines = invoice.children.invoice_invoice_line ?? [];
    await insertRows(
      client,
      INVOICE_LINE,
      lines.map((line) => ({ ...columnsOf(INVOICE_LINE, line), id_invoice: key })),
      identity,
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  sendJson(response, 200, { operation: 'insert', key });
}

// ---- BEST_SQL: the create as a person would write it -----------------------------------
const SQL_TYPES = {
  bigint: 'int8',
  integer: 'int4',
  decimal: 'numeric',
  string: 'text',
  datetime: 'timestamptz',
};
const sqlTypeOf = (property) => property.sqlType ?? SQL_TYPES[property.type];

/** `EXISTS` a readable row of each lookup a row sets: the tenancy check inside the INSERT. */
function lookupsExist(type, valueSql, params, scope) {
  const checks = [];
  for (const [name, property] of type.properties) {
    if (!property.lookup) continue;
    const value = valueSql(name);
    if (value === undefined) continue;
    checks.push(
      `(${value} IS NULL OR EXISTS (SELECT 1 FROM ${quote(property.lookup)} t
          WHERE t.key = ${value} AND ${rowsSql(scope, 't', params)}))`,
    );
  }
  return checks.length ? checks.join(' AND ') : 'true';
}

/**
 * BEGIN, INSERT invoice, INSERT lines, COMMIT: the invoice is inserted only if its account
 * is one the caller reads, and the lines (from arrays, one per column) only where their
 * product is; fewer rows than sent means a lookup failed, and the transaction is undone.
 */
async function insertInvoiceChecked(invoice, identity, scope) {
  const owner = [identity.organizationKey, identity.businessUnitKey, identity.userKey];
  const ownerColumns = ['id_organization', 'id_business_unit', 'id_user'];
  const row = columnsOf(INVOICE, invoice);
  const lines = (invoice.children.invoice_invoice_line ?? []).map((line) =>
    columnsOf(INVOICE_LINE, line),
  );
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    let params = new SqlParameters();
    const cells = Object.fromEntries(
      Object.entries(row).map(([name, value]) => [
        name,
        params.bind(value, sqlTypeOf(INVOICE.properties.get(name))),
      ]),
    );
    const ownerCells = owner.map((value) => params.bind(value, 'int8'));
    const readable = lookupsExist(INVOICE, (name) => cells[name], params, scope);
    const { rows } = await client.query(
      `INSERT INTO invoice (${[...Object.keys(cells), ...ownerColumns].map(quote).join(', ')})
       SELECT ${[...Object.values(cells), ...ownerCells].join(', ')} WHERE ${readable}
       RETURNING key`,
      params.values,
    );
    if (!rows[0]) throw invalid('invoice.id_account', `no account with key ${row.id_account}`);
    const key = rows[0].key;
    if (lines.length > 0) {
      const columns = [...new Set(lines.flatMap((line) => Object.keys(line)))];
      params = new SqlParameters();
      const arrays = columns.map((name) =>
        params.bind(
          lines.map((line) => line[name] ?? null),
          `${sqlTypeOf(INVOICE_LINE.properties.get(name))}[]`,
        ),
      );
      const fixed = [key, ...owner].map((value) => params.bind(value, 'int8'));
      const lineColumn = (name) => (columns.includes(name) ? `l.${quote(name)}` : undefined);
      const readable = lookupsExist(INVOICE_LINE, lineColumn, params, scope);
      const inserted = await client.query(
        `INSERT INTO invoice_line (${[...columns, 'id_invoice', ...ownerColumns].map(quote).join(', ')})
         SELECT ${columns.map((name) => `l.${quote(name)}`).join(', ')}, ${fixed.join(', ')}
           FROM unnest(${arrays.join(', ')}) WITH ORDINALITY
                AS l(${[...columns, 'n'].map(quote).join(', ')})
          WHERE ${readable}
          ORDER BY l.n RETURNING id_product`,
        params.values,
      );
      if (inserted.rowCount !== lines.length) {
        const found = new Set(inserted.rows.map((r) => r.id_product));
        const index = lines.findIndex(
          (l) => l.id_product != null && !found.has(Number(l.id_product)),
        );
        throw invalid(
          `invoice_invoice_line[${index}].id_product`,
          `no product with key ${lines[index]?.id_product}`,
        );
      }
    }
    await client.query('COMMIT');
    return key;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** The SQL of invoicing.summary (src/demo/invoicing.workflow.ts), as the app compiles it. */
function summarySql(scope, accountKey, range) {
  const params = new SqlParameters();
  const account = rowsSql(scope, 't0', params);
  const key = params.bind(accountKey, 'int8');
  const invoice = rowsSql(scope, 't1', params);
  const [from, to] = range.map((at) => params.bind(at, 'timestamptz'));
  const [from2, to2] = range.map((at) => params.bind(at, 'timestamptz'));
  const limit = params.bind(5000, 'int8');
  const sql = `SELECT t0."key" AS "account", count(t1."key") AS "count", sum(t1."total") AS "total" FROM "account" t0 LEFT JOIN "invoice" t1 ON t1."id_account" = t0."key" AND ${invoice} AND (t1."issue_date" BETWEEN ${from} AND ${to} OR t1."date_created" BETWEEN ${from2} AND ${to2}) WHERE ${account} AND (t0."key" = ${key}) GROUP BY t0."key" LIMIT ${limit}`;
  return [sql, params.values];
}
const DATETIME_ARGUMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/**
 * POST /rest/workflow/invoicing/summary: the same checks of the body, and the same
 * transaction (the app runs every workflow method in one) around the same statement.
 */
async function invoicingSummary(request, response) {
  const identity = await authenticate(request, response);
  if (!identity) throw new HttpError(401, { detail: 'Authentication required' });
  const body = await readJson(request);
  const { accountKey, from, to } = body ?? {};
  if (!Number.isSafeInteger(accountKey) || ![from, to].every((d) => DATETIME_ARGUMENT.test(d))) {
    throw new HttpError(400, { detail: 'Bad arguments' });
  }
  const range = [new Date(`${from}Z`).toISOString(), new Date(`${to}Z`).toISOString()];
  const client = await pool.connect();
  let rows;
  try {
    await client.query('START TRANSACTION');
    ({ rows } = await client.query(...summarySql(await scopeOf(identity), accountKey, range)));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  if (rows.length === 0) throw new HttpError(404, { detail: `account ${accountKey} not found` });
  sendJson(response, 200, { count: rows[0].count, total: rows[0].total ?? '0.00' });
}

/**
 * POST /rest/fetch for the two benchmarked queries: the same authentication and body
 * handling, the SQL the app compiles them to (bench/fetch-queries.js), the rows as JSON.
 */
async function runFetch(request, response) {
  const identity = await authenticate(request, response);
  if (!identity) throw new HttpError(401, { detail: 'Authentication required' });
  const compiled = (BEST_SQL ? FETCH_HAND_WRITTEN : FETCH_COMPILED)[await readBody(request)];
  if (!compiled) throw new HttpError(400, { detail: 'The baseline knows only the bench queries' });
  const scope = await scopeOf(identity);
  const { sql, params } = compiled.compile((alias, bound) => rowsSql(scope, alias, bound));
  const { rows } = await pool.query(sql, params);
  for (const row of rows) for (const name of compiled.hidden) delete row[name];
  sendJson(response, 200, rows);
}

/**
 * POST /rest/fetch/parse's baseline: the same authentication and body handling, then
 * the query text echoed back, without parsing it (issue 4 measures the parser against
 * an echo of the same body).
 */
async function echoFetchText(request, response) {
  const identity = await authenticate(request, response);
  if (!identity) throw new HttpError(401, { detail: 'Authentication required' });
  if (!/^text\/plain\b/i.test(request.headers['content-type'] ?? '')) {
    throw new HttpError(415, { detail: 'Content-Type must be text/plain' });
  }
  const text = await readBody(request);
  response.writeHead(200, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

function sendJson(response, status, value) {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

// ---- Routes: "METHOD /path" -> handler(request, response, query) ---------------------
const ROUTES = {
  'GET /health': async (_request, response) => {
    await pool.query('SELECT 1');
    sendJson(response, 200, { status: 'ok', info: { database: { status: 'up' } } });
  },
  'GET /auth': async (request, response, query) => {
    const identity = await authenticate(request, response, query);
    sendJson(response, 200, describe(request, identity));
  },
  'POST /rest/entity/invoice': createInvoice,
  'POST /rest/fetch/parse': echoFetchText,
  'POST /rest/fetch': runFetch,
  'POST /rest/workflow/invoicing/summary': invoicingSummary,
};

/**
 * POST /rest/entity/account/{key} with a new e-mail: hand-written (the app also reads the
 * record, runs its hooks and logs the change), one UPDATE limited by the caller's rows.
 */
async function renameAccount(request, response, key) {
  const identity = await authenticate(request, response);
  if (!identity) throw new HttpError(401, { detail: 'Authentication required' });
  const { properties = {} } = (await readJson(request)) ?? {};
  if (!/^[1-9]\d*$/.test(key) || typeof properties.email !== 'string') {
    throw new HttpError(400, { detail: 'a key and an e-mail are required' });
  }
  const params = new SqlParameters();
  const email = params.bind(properties.email, 'text');
  const where = `t.key = ${params.bind(key, 'int8')} AND ${rowsSql(await scopeOf(identity), 't', params)}`;
  const { rows } = await pool.query(
    `UPDATE account t SET email = ${email}, date_updated = now() WHERE ${where} RETURNING key`,
    params.values,
  );
  if (!rows[0]) throw new HttpError(404, { detail: `account ${key} not found` });
  sendJson(response, 200, { operation: 'update', key: Number(rows[0].key) });
}

/** Routes with a path parameter: [method, pattern, handler(request, response, ...groups)]. */
const PATTERN_ROUTES = [
  ['GET', /^\/rest\/entity\/invoice\/([^/]+)$/, readInvoice],
  ['POST', /^\/rest\/entity\/account\/([^/]+)$/, renameAccount],
];

function routeOf(method, path) {
  const exact = ROUTES[`${method} ${path}`];
  if (exact) return exact;
  for (const [routeMethod, pattern, handler] of PATTERN_ROUTES) {
    const match = method === routeMethod ? pattern.exec(path) : null;
    if (match) return (request, response) => handler(request, response, ...match.slice(1));
  }
  return undefined;
}

const server = http.createServer((request, response) => {
  const url = request.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const query = mark < 0 ? undefined : new URLSearchParams(url.slice(mark + 1));
  const route = routeOf(request.method, path);
  if (!route) return sendJson(response, 404, { detail: `Cannot ${request.method} ${path}` });
  route(request, response, query).catch((error) => {
    if (error instanceof HttpError) {
      if (!response.headersSent) return sendJson(response, error.status, error.body);
      return response.destroy();
    }
    console.error(error);
    if (!response.headersSent) sendJson(response, 500, { detail: 'Internal server error' });
    else response.destroy();
  });
});
server.keepAliveTimeout = 5_000; // Node's default, as the app's

server.listen(PORT, HOST, () => console.log(`baseline listening on http://${HOST}:${PORT}`));

const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
