'use strict';
/**
 * `npm run bench:parser`: FETCH parses per second on one core, in process, for a query
 * of about 300 bytes with two links, a nested filter and aggregates (issue target:
 * 50,000/s). Runs the built parser (dist/), as the server does.
 *
 * Env: BENCH_DURATION (s, 10), BENCH_WARMUP (s, 3).
 */
const { parseFetch } = require('../dist/src/fetch/fetch.parser');
const { numberFromEnv } = require('./harness');

const QUERY = `FETCH invoice (status, COUNT(*) AS invoices, SUM(total) AS revenue)
{ account AS a TO id_account (country AS country) WHERE credit_limit > 1000 }
{ invoice_line EXISTS FROM id_invoice TO key WHERE quantity >= 5 }
WHERE (issue_date IS LAST 12 MONTHS OR issue_date IS NULL) AND status IN ('issued', 'paid')
GROUP BY status, country ORDER BY revenue DESC LIMIT 50`;

/** Parses for `ms` milliseconds; returns parses per second. */
function run(ms) {
  let count = 0;
  let tree;
  const started = process.hrtime.bigint();
  const end = started + BigInt(ms) * 1_000_000n;
  let now;
  do {
    for (let i = 0; i < 100; i += 1) tree = parseFetch(QUERY);
    count += 100;
    now = process.hrtime.bigint();
  } while (now < end);
  if (!tree.links || tree.links.length !== 2) throw new Error('the bench query parsed wrong');
  return count / (Number(now - started) / 1e9);
}

module.exports = { QUERY };

if (require.main === module) {
  run(numberFromEnv('BENCH_WARMUP', 3) * 1000);
  const perSecond = run(numberFromEnv('BENCH_DURATION', 10) * 1000);
  console.log(
    `FETCH parser: ${Math.round(perSecond).toLocaleString('en')} parses/s on one core ` +
      `(${Buffer.byteLength(QUERY)}-byte query, two links, nested filter, aggregates; target 50,000)`,
  );
}
