'use strict';
/**
 * The benchmarked requests. Each runs against the app and against bench/baseline.js
 * (which must serve the same route with the same SQL), then N sequential requests go
 * through a counting PostgreSQL proxy to report statements per request.
 *
 *   name        shown in the table and the JSON
 *   method      HTTP method
 *   path        path (+ query), or (ctx) => path (e.g. a key made in `setup`)
 *   headers     object, or (ctx) => object; ctx = { cookie, csrfToken, apiKey, ... }
 *   body        optional string/object, or (ctx) => string/object (objects are sent as JSON)
 *   setup       optional async (ctx) => void, run once before the scenarios, with the
 *               logged-in ctx (ctx.request(method, path, { headers, body }) calls the app)
 *   sameBody    default true: the app and the baseline must answer the same bytes, and
 *               every benchmarked response must equal that body (autocannon expectBody)
 *   verify      optional (text) => boolean, for answers that differ per request (sameBody:
 *               false): both servers' first answer must pass it, and every benchmarked
 *               response too (autocannon verifyBody; a failure counts as a mismatch)
 *   verifyBaseline optional: the baseline's own check, where it answers differently on
 *               purpose (an echo); `verify` is then the app's
 *   sameHeaders optional list of response headers both servers must send with equal values
 *   vary        optional (ctx, random, n) => { path?, body? }: each request its own path or
 *               body (a random key), `random` a seeded generator, `n` the request's number
 *               in its phase; bench/run.js checks 10 such requests one by one on both
 *               servers, then under load checks `verify`, or without it that each body is
 *               one of those the checks saw
 *   baselineSql 'hand-written' where the baseline runs its own best SQL (BASELINE_SQL=best)
 *               rather than the app's: the report lists both instead of warning
 *   turns       true on the one FETCH run again as one user's load under the per-user
 *               turns, default and raised (bench/turns.js)
 *   plain       false where bench/plain.js has no counterpart (it answers the rest the
 *               way the baseline must: the same bytes, or `verify`)
 */

/**
 * An account and three products of the API key's organization, made once through the
 * app's API and shared by the entity scenarios (then also in ctx.bench).
 */
async function benchRows(ctx) {
  ctx.benchRows ??= (async () => {
    const headers = { 'x-api-key': ctx.apiKey };
    const create = async (name, properties, children) => {
      const response = await ctx.request('POST', `/rest/entity/${name}`, {
        headers,
        body: { properties, ...(children ? { children } : {}) },
      });
      if (response.status !== 200) {
        throw new Error(`setup: POST /rest/entity/${name}: ${response.status} ${response.text}`);
      }
      return JSON.parse(response.text).key;
    };
    const accountKey = await create('account', {
      name: 'Bench Industries',
      email: 'billing@bench.example',
      country: 'Germany',
      credit_limit: '25000.00',
    });
    const productKeys = [];
    for (const [code, name, price] of [
      ['BENCH-001', 'Bench widget', '12.50'],
      ['BENCH-002', 'Bench gadget', '99.99'],
      ['BENCH-003', 'Bench service hour', '85.00'],
    ]) {
      productKeys.push(await create('product', { code, name, price }));
    }
    return { accountKey, productKeys, create };
  })();
  ctx.bench = await ctx.benchRows;
  return ctx.bench;
}

/** The invoice with 10 lines the read scenarios ask for (ctx.readInvoiceKey), made once. */
async function readInvoice(ctx) {
  ctx.readInvoice ??= (async () => {
    const { accountKey, productKeys, create } = await benchRows(ctx);
    const lines = invoiceLines(productKeys, 10);
    lines[0].properties.description = 'Widgets, "blue" édition'; // escaping, non-ASCII
    return create(
      'invoice',
      {
        id_account: accountKey,
        number: 'BENCH-READ-1',
        issue_date: '2026-01-15T09:30:00+01:00',
        currency: 'EUR',
      },
      { invoice_invoice_line: lines },
    );
  })();
  ctx.readInvoiceKey = await ctx.readInvoice;
}

/**
 * A user of the administrator's unit whose one role reaches every type at
 * business_unit_tree depth: its statements carry the unit-tree predicate (ctx.treeApiKey).
 */
async function treeUser(ctx) {
  ctx.treeUser ??= (async () => {
    const headers = { 'x-api-key': ctx.apiKey };
    const post = async (name, body) => {
      const response = await ctx.request('POST', `/rest/entity/${name}`, { headers, body });
      if (response.status !== 200) {
        throw new Error(`setup: POST /rest/entity/${name}: ${response.status} ${response.text}`);
      }
      return JSON.parse(response.text).key;
    };
    const depth = 'business_unit_tree';
    const roleKey = await post('role', {
      properties: { name: 'bench-unit-tree' },
      children: {
        role_role_privilege: [
          {
            properties: {
              entity_name: '*',
              create: depth,
              read: depth,
              write: depth,
              delete: depth,
            },
          },
        ],
      },
    });
    const password = 'bench-tree-password-1';
    await post('user', {
      properties: { user_name: 'bench.tree', full_name: 'Bench Tree', password },
      children: { user_user_role: [{ properties: { id_role: roleKey } }] },
    });
    return (await ctx.signInAs('bench.tree', password)).apiKey;
  })();
  ctx.treeApiKey = await ctx.treeUser;
}

/** `count` invoice lines over the bench products, with exact decimal prices. */
function invoiceLines(productKeys, count) {
  const prices = ['12.50', '99.99', '85.00', '0.35', '1234.56'];
  return Array.from({ length: count }, (_, i) => ({
    properties: {
      id_product: productKeys[i % productKeys.length],
      quantity: (i % 7) + 1,
      unit_price: prices[i % prices.length],
    },
  }));
}

const WRITE_RESULT = /^\{"operation":"insert","key":\d+\}$/;

const FETCH_QUERIES = require('./fetch-queries');

/** The parser benchmark's query, and the tree the app must answer with. */
const { QUERY: FETCH_QUERY } = require('./fetch-parser');
const { parseFetch } = require('../dist/src/fetch/fetch.parser');
const FETCH_TREE = JSON.stringify({ fetch: [parseFetch(FETCH_QUERY)] });

module.exports = [
  {
    name: 'GET /auth (session cookie)',
    method: 'GET',
    path: '/auth',
    headers: (ctx) => ({ cookie: ctx.cookie }),
  },
  {
    name: 'GET /auth (API key)',
    method: 'GET',
    path: '/auth',
    headers: (ctx) => ({ 'x-api-key': ctx.apiKey }),
  },
  {
    name: 'GET /rest/entity/invoice/{key} (10 lines)',
    method: 'GET',
    path: (ctx) => `/rest/entity/invoice/${ctx.readInvoiceKey}`,
    headers: (ctx) => ({ 'x-api-key': ctx.apiKey }),
    sameHeaders: ['etag'],
    setup: readInvoice,
  },
  {
    name: 'GET /rest/entity/invoice/{key} (10 lines, unit-tree role)',
    method: 'GET',
    path: (ctx) => `/rest/entity/invoice/${ctx.readInvoiceKey}`,
    headers: (ctx) => ({ 'x-api-key': ctx.treeApiKey }),
    sameHeaders: ['etag'],
    async setup(ctx) {
      await readInvoice(ctx);
      await treeUser(ctx);
    },
  },
  {
    name: 'POST /rest/entity/invoice (5 lines)',
    writes: true,
    method: 'POST',
    path: '/rest/entity/invoice',
    headers: (ctx) => ({ 'x-api-key': ctx.apiKey }),
    body: (ctx) => ({
      entity_name: 'invoice',
      properties: { id_account: ctx.bench.accountKey, currency: 'EUR' },
      children: { invoice_invoice_line: invoiceLines(ctx.bench.productKeys, 5) },
    }),
    sameBody: false,
    verify: (text) => WRITE_RESULT.test(text),
    async setup(ctx) {
      await benchRows(ctx);
    },
  },
  {
    name: 'POST /rest/entity/account/{key} (a new e-mail)',
    writes: true,
    method: 'POST',
    path: (ctx) => `/rest/entity/account/${ctx.renamed[0]}`,
    headers: (ctx) => ({ 'x-api-key': ctx.apiKey }),
    // Another account each time (of 50), so that the load measures writes, not one row's lock.
    vary: (ctx, random, n) => ({
      path: `/rest/entity/account/${ctx.renamed[Math.floor(random() * ctx.renamed.length)]}`,
      body: { entity_name: 'account', properties: { email: `bench${n}@bench.example` } },
    }),
    sameBody: false,
    verify: (text) => /^\{"operation":"update","key":\d+\}$/.test(text),
    baselineSql: 'hand-written',
    async setup(ctx) {
      ctx.renamed = [];
      for (let i = 0; i < 50; i++) {
        const response = await ctx.request('POST', '/rest/entity/account', {
          headers: { 'x-api-key': ctx.apiKey },
          body: { properties: { name: `Renamed ${i}` } },
        });
        if (response.status !== 200) throw new Error(`setup: account: ${response.status}`);
        ctx.renamed.push(JSON.parse(response.text).key);
      }
    },
  },
  {
    // Against an echo of the same body: what parsing (and Nest) add to a bare server.
    name: 'POST /rest/fetch/parse (360-byte query)',
    method: 'POST',
    path: '/rest/fetch/parse',
    headers: (ctx) => ({ 'x-api-key': ctx.apiKey, 'content-type': 'text/plain' }),
    body: FETCH_QUERY,
    sameBody: false,
    verify: (text) => text === FETCH_TREE,
    verifyBaseline: (text) => text === FETCH_QUERY,
    // Nothing to compare with: a server without a query language has no parser.
    plain: false,
  },
  {
    name: 'POST /rest/fetch (50 invoices with their account)',
    method: 'POST',
    path: '/rest/fetch',
    headers: (ctx) => ({ 'x-api-key': ctx.apiKey, 'content-type': 'text/plain' }),
    body: FETCH_QUERIES.LIST,
  },
  {
    name: 'POST /rest/fetch (50 invoices with their account, unit-tree role)',
    method: 'POST',
    path: '/rest/fetch',
    headers: (ctx) => ({ 'x-api-key': ctx.treeApiKey, 'content-type': 'text/plain' }),
    body: FETCH_QUERIES.LIST,
    async setup(ctx) {
      await treeUser(ctx);
    },
  },
  {
    name: 'POST /rest/fetch (revenue by status and month)',
    method: 'POST',
    path: '/rest/fetch',
    headers: (ctx) => ({ 'x-api-key': ctx.apiKey, 'content-type': 'text/plain' }),
    body: FETCH_QUERIES.AGGREGATE,
    turns: true,
    // The POST scenario adds invoices while the run goes on: the sums move.
    sameBody: false,
    verify: (text) => /^\[\{"status":"\w+","month":/.test(text),
  },
  {
    name: 'POST /rest/workflow/invoicing/summary',
    method: 'POST',
    path: '/rest/workflow/invoicing/summary',
    headers: (ctx) => ({ 'x-api-key': ctx.apiKey }),
    body: (ctx) => ({
      accountKey: ctx.bench.accountKey,
      from: '2020-01-01T00:00:00',
      to: '2030-12-31T23:59:59',
    }),
    // The POST scenario adds invoices to this account while the run goes on.
    sameBody: false,
    verify: (text) => /^\{"count":\d+,"total":"\d+\.\d{2}"\}$/.test(text),
    async setup(ctx) {
      await benchRows(ctx);
    },
  },
];
