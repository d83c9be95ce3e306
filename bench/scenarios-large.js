'use strict';
/**
 * The scenarios of BENCH_DATA=large (issue 19): the requests of a real client on the large
 * data set of bench/large-data.js, each request on other rows. The format is
 * bench/scenarios.js's; `vary(ctx, random, n)` gives each request its own key or body,
 * from ctx.large's keys (read by bench/run.js after loading) and a seeded generator, so a
 * run asks the same sequence of rows every time, of the app and of the baseline alike.
 *
 * The baseline runs with BASELINE_SQL=best: the best SQL a person would write for each
 * answer (`baselineSql: 'hand-written'`), not a copy of the app's, so the ratio also
 * prices the app's SQL. The create scenario is last: the invoices it adds would move the
 * other scenarios' answers, which are checked against those taken before any load.
 */
const { LARGE_AGGREGATE, LARGE_LIST_STATUSES, largeList } = require('./fetch-queries');

const pick = (keys, random) => keys[Math.floor(random() * keys.length)];
const occurrences = (text, part) => text.split(part).length - 1;

/** An invoice of the large set with its 5 lines, in the 2.2 envelope. */
const isLargeInvoice = (text) =>
  text.startsWith('{"entity_name":"invoice","properties":{"key":') &&
  occurrences(text, '"entity_name":"invoice_line"') === 5;

const WRITE_RESULT = /^\{"operation":"insert","key":\d+\}$/;
const UPDATE_RESULT = /^\{"operation":"update","key":\d+\}$/;
const PRICES = ['12.50', '99.99', '85.00', '0.35', '1234.56'];

const apiKey = (ctx) => ({ 'x-api-key': ctx.apiKey });
const fetchHeaders = (ctx) => ({ 'x-api-key': ctx.apiKey, 'content-type': 'text/plain' });

module.exports = [
  {
    name: 'large: GET /rest/entity/invoice/{random key} (5 lines)',
    method: 'GET',
    path: (ctx) => `/rest/entity/invoice/${ctx.large.invoiceKeys[0]}`,
    vary: (ctx, random) => ({
      path: `/rest/entity/invoice/${pick(ctx.large.invoiceKeys, random)}`,
    }),
    headers: apiKey,
    sameHeaders: ['etag'],
    verify: isLargeInvoice,
  },
  {
    name: "large: POST /rest/fetch (sum and count by status, accounts LIKE 'A%')",
    method: 'POST',
    path: '/rest/fetch',
    headers: fetchHeaders,
    body: LARGE_AGGREGATE,
    baselineSql: 'hand-written',
    turns: true,
  },
  {
    // Each request another status in turn; every answer must be one of those the check
    // phase saw (both servers equal), so no verify: run.js keeps the checked bodies.
    name: 'large: POST /rest/fetch (top 50 invoices of a status by total, with account)',
    method: 'POST',
    path: '/rest/fetch',
    headers: fetchHeaders,
    body: largeList(LARGE_LIST_STATUSES[0]),
    vary: (_ctx, _random, n) => ({
      body: largeList(LARGE_LIST_STATUSES[n % LARGE_LIST_STATUSES.length]),
    }),
    baselineSql: 'hand-written',
  },
  {
    // The e-mail, which no other scenario reads: their answers stay those checked first.
    name: 'large: POST /rest/entity/account/{random key} (a new e-mail)',
    writes: true,
    method: 'POST',
    path: (ctx) => `/rest/entity/account/${ctx.large.accountKeys[0]}`,
    headers: apiKey,
    vary: (ctx, random, n) => ({
      path: `/rest/entity/account/${pick(ctx.large.accountKeys, random)}`,
      body: { entity_name: 'account', properties: { email: `renamed${n}@bench.example` } },
    }),
    sameBody: false,
    verify: (text) => UPDATE_RESULT.test(text),
    baselineSql: 'hand-written',
  },
  {
    name: 'large: POST /rest/entity/invoice (random account, 5 lines on random products)',
    writes: true,
    method: 'POST',
    path: '/rest/entity/invoice',
    headers: apiKey,
    vary: (ctx, random) => ({
      body: {
        entity_name: 'invoice',
        properties: { id_account: pick(ctx.large.accountKeys, random), currency: 'EUR' },
        children: {
          invoice_invoice_line: Array.from({ length: 5 }, (_, i) => ({
            properties: {
              id_product: pick(ctx.large.productKeys, random),
              quantity: 1 + Math.floor(random() * 7),
              unit_price: PRICES[i],
            },
          })),
        },
      },
    }),
    sameBody: false,
    verify: (text) => WRITE_RESULT.test(text),
    baselineSql: 'hand-written',
  },
];
