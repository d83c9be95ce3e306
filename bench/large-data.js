'use strict';
/**
 * The benchmark's large data set (issue 19, BENCH_DATA=large): 10,000 accounts, 1,000
 * products, 100,000 invoices and 500,000 invoice lines (5 each) in the administrator's
 * organization, owned by 9 users (the administrator and 8 made here) in 4 business units
 * (the root and 3 made below it).
 *
 * Plain SQL over generate_series, in one transaction, so that it loads in seconds rather
 * than the minutes the entity API would take; and deterministic: no random(), every value
 * is arithmetic on the series index or a hash of it (md5), timestamps are fixed instants
 * plus offsets, so two runs hold the same rows and the FETCH answers are the same sums.
 * What the app's hooks would compute is computed the same way here: a line's amount is
 * quantity × unit_price, an invoice's total the sum of its lines' amounts, and a line has
 * its invoice's owner (children share their parent's owner, see the AccessControl
 * migration).
 *
 * Keys are set, not left to the identity columns, so that an invoice can name its account
 * by arithmetic; they start after the table's largest key (any rows already there stay),
 * and each sequence is moved past them afterwards, so the app's own inserts do not
 * collide. Codes, numbers and user names carry a prefix of their own, apart from the demo
 * seed's (P-001, INV-2025-0001, sara.sales).
 *
 * Usage: `await loadLargeData(client)` with a pg Client on the bench database, after the
 * app has migrated it and created the organization and its administrator (first boot).
 */

const COUNTS = { accounts: 10_000, products: 1_000, invoices: 100_000, linesPerInvoice: 5 };
const UNITS = ['Bench North', 'Bench South', 'Bench East'];
const USERS = 8;
const STATUSES = ['draft', 'issued', 'paid', 'cancelled'];

/**
 * A number 0..2^31-1 from a text: the first 31 bits of its md5, as a stand-in for
 * random() that gives the same value in every run. Inlined by the planner (plain SQL).
 */
const HASH_FUNCTION = `CREATE FUNCTION pg_temp.bench_hash(seed text) RETURNS bigint
  LANGUAGE sql IMMUTABLE AS $$ SELECT ('x' || left(md5(seed), 8))::bit(32)::bigint >> 1 $$`;

// Twenty first words with twenty different first letters, so `name LIKE 'A%'` picks one
// account in twenty; the second word and the number make the name unique.
const words = (text) => text.split(' ');
const FIRST_WORDS = [
  ...words('Alpine Boreal Cedar Delta Ember Falcon Granite Harbor Iris Juniper'),
  ...words('Kestrel Lumen Meridian Northwind Orion Pioneer Quartz Riverside Summit Tundra'),
];
const SECOND_WORDS = words('Industries Logistics Foods Systems Trading Media Labs');
const COUNTRIES = words('Germany France Romania Italy Spain Netherlands Poland Austria');
const PRODUCT_WORDS = words(
  'Widget Gadget Cable Sensor Valve Bracket Panel Filter License Fitting',
);
const SIZES = ['S', 'M', 'L', 'XL'];

/** A SQL text array literal of plain words (no quotes in them). */
const textArray = (words) => `ARRAY[${words.map((w) => `'${w}'`).join(', ')}]`;

/**
 * Loads the set in one transaction, each statement timed through `log`, then vacuums and
 * analyzes the tables. Returns { ms (the whole), counts, organizationKey, unitKeys,
 * ownerUsers }.
 */
async function loadLargeData(client, { log = () => {} } = {}) {
  const started = process.hrtime.bigint();
  const timed = async (label, sql, params) => {
    const at = process.hrtime.bigint();
    const result = await client.query(sql, params);
    log(`  ${label}: ${(Number(process.hrtime.bigint() - at) / 1e6).toFixed(0)} ms`);
    return result;
  };

  const lines = COUNTS.invoices * COUNTS.linesPerInvoice;
  let loaded;
  await client.query('BEGIN');
  try {
    await client.query(HASH_FUNCTION);
    const { rows: admins } = await client.query(
      `SELECT key, id_organization, id_business_unit FROM "user"
        WHERE is_admin ORDER BY key LIMIT 1`,
    );
    if (!admins[0]) throw new Error('large data: no administrator yet (has the app booted?)');
    const admin = admins[0];
    const org = Number(admin.id_organization);

    // Units below the root unit, and users spread over the four units (no password: they
    // own rows, they do not sign in).
    const { rows: units } = await timed(
      'business units',
      `INSERT INTO business_unit (name, id_parent_business_unit, id_organization, id_business_unit, id_user)
       SELECT name, $2, $1, $2, $3 FROM unnest($4::text[]) WITH ORDINALITY AS u(name, n)
        ORDER BY n RETURNING key`,
      [org, admin.id_business_unit, admin.key, UNITS],
    );
    const unitKeys = [Number(admin.id_business_unit), ...units.map((u) => Number(u.key))];
    const { rows: users } = await timed(
      'users',
      `INSERT INTO "user" (user_name, full_name, is_admin, id_organization, id_business_unit, id_user)
       SELECT 'bench.owner' || n, 'Bench Owner ' || n, false, $1, ($2::int8[])[1 + n % 4], $3
         FROM generate_series(1, $4::int) n ORDER BY n RETURNING key, id_business_unit`,
      [org, unitKeys, admin.key, USERS],
    );
    // The owners: the administrator first; owner o of a row is owners[o % 9].
    const owners = [admin, ...users];
    const ownerUsers = owners.map((o) => Number(o.key));
    const ownerUnits = owners.map((o) => Number(o.id_business_unit));

    const base = {};
    for (const table of ['account', 'product', 'invoice', 'invoice_line']) {
      const { rows } = await client.query(`SELECT coalesce(max(key), 0)::int8 AS n FROM ${table}`);
      base[table] = Number(rows[0].n);
    }
    // $1 org, $2 owner users, $3 owner units: every statement below binds these first.
    const owner = [org, ownerUsers, ownerUnits];
    const ownerOf = (index) =>
      `($2::int8[])[1 + (${index}) % ${owners.length}], ($3::int8[])[1 + (${index}) % ${owners.length}]`;

    // Accounts: account i (1..10,000) has key base + i and owner i % 9.
    await timed(
      `${COUNTS.accounts} accounts`,
      `INSERT INTO account (key, id_organization, id_user, id_business_unit, uuid, date_created, date_updated,
                            name, email, country, credit_limit)
       SELECT ${base.account} + i, $1, ${ownerOf('i')}, md5('account-' || i)::uuid,
              created, created + (i % 300) * interval '1 day',
              (${textArray(FIRST_WORDS)})[1 + i % 20] || ' ' || (${textArray(SECOND_WORDS)})[1 + (i / 20) % 7]
                || ' ' || lpad(i::text, 5, '0'),
              'billing' || i || '@account' || (i % 97) || '.example',
              (${textArray(COUNTRIES)})[1 + pg_temp.bench_hash('country-' || i) % 8],
              CASE WHEN i % 10 = 0 THEN NULL ELSE (1000 * (1 + pg_temp.bench_hash('credit-' || i) % 100))::numeric(14,2) END
         FROM generate_series(1, ${COUNTS.accounts}) i,
              LATERAL (SELECT timestamptz '2023-06-01 08:00:00+00' + i * interval '17 minutes' AS created) c`,
      owner,
    );

    // Products: code B-00001.., prices 0.50 to 500.00, one in fifty inactive.
    await timed(
      `${COUNTS.products} products`,
      `INSERT INTO product (key, id_organization, id_user, id_business_unit, uuid, date_created, date_updated,
                            code, name, price, active)
       SELECT ${base.product} + i, $1, ${ownerOf('i')}, md5('product-' || i)::uuid,
              timestamptz '2023-05-01 08:00:00+00' + i * interval '1 hour',
              timestamptz '2023-05-01 08:00:00+00' + i * interval '1 hour',
              'B-' || lpad(i::text, 5, '0'),
              (${textArray(PRODUCT_WORDS)})[1 + i % 10] || ' ' || (${textArray(SIZES)})[1 + (i / 10) % 4] || ' ' || i,
              ((50 + pg_temp.bench_hash('price-' || i) % 49951) / 100.0)::numeric(14,2),
              i % 50 <> 0
         FROM generate_series(1, ${COUNTS.products}) i`,
      owner,
    );

    // The lines first, into a temporary table: the invoices take their totals from them,
    // then they are copied into invoice_line (whose id_invoice needs the invoice).
    // Line j (1..5) of invoice n: a product by hash, 1 to 7 of it at the product's price.
    await timed(
      `${lines} lines computed`,
      `CREATE TEMPORARY TABLE bench_line ON COMMIT DROP AS
       SELECT n, j, p.key AS id_product, p.name AS description, q AS quantity, p.price AS unit_price,
              (q * p.price)::numeric(14,2) AS amount
         FROM generate_series(1, ${COUNTS.invoices}) n, generate_series(1, ${COUNTS.linesPerInvoice}) j,
              LATERAL (SELECT 1 + pg_temp.bench_hash('line-' || n || '-' || j) % 7 AS q,
                              ${base.product} + 1 + pg_temp.bench_hash('line-product-' || n || '-' || j)
                                % ${COUNTS.products} AS product) l
         JOIN product p ON p.key = l.product`,
    );
    // Invoices: invoice n is issued on n × 946 s after 2024-01-01 (over 2024 to 2026, in
    // number order), to account 1 + (n × 7919) mod 10,000 (a permutation: ten invoices
    // each, not in account order), owned by that account's owner; status by hash, about
    // 10% draft, 25% issued, 55% paid, 10% cancelled.
    await timed(
      `${COUNTS.invoices} invoices`,
      `INSERT INTO invoice (key, id_organization, id_user, id_business_unit, uuid, date_created, date_updated,
                            number, id_account, status, issue_date, currency, total)
       SELECT ${base.invoice} + n, $1, ${ownerOf('a')}, md5('invoice-' || n)::uuid,
              issued - interval '2 hours', issued + (n % 5) * interval '1 day',
              'BI-' || extract(year FROM issued) || '-' || lpad(n::text, 6, '0'),
              ${base.account} + a,
              (${textArray(STATUSES)}::invoice_status_enum[])[
                CASE WHEN s < 10 THEN 1 WHEN s < 35 THEN 2 WHEN s < 90 THEN 3 ELSE 4 END],
              issued, 'EUR', t.total
         FROM (SELECT n, sum(amount) AS total FROM bench_line GROUP BY n) t,
              LATERAL (SELECT 1 + (n * 7919) % ${COUNTS.accounts} AS a,
                              pg_temp.bench_hash('status-' || n) % 100 AS s,
                              timestamptz '2024-01-01 08:00:00+00' + n * interval '946 seconds' AS issued) v
        ORDER BY n`,
      owner,
    );
    await timed(
      `${lines} invoice lines`,
      `INSERT INTO invoice_line (key, id_organization, id_user, id_business_unit, uuid, date_created, date_updated,
                                 id_invoice, id_product, description, quantity, unit_price, amount)
       SELECT ${base.invoice_line} + (l.n - 1) * ${COUNTS.linesPerInvoice} + l.j, $1, i.id_user, i.id_business_unit,
              md5('invoice-line-' || l.n || '-' || l.j)::uuid, i.date_created, i.date_created,
              i.key, l.id_product, l.description, l.quantity, l.unit_price, l.amount
         FROM bench_line l JOIN invoice i ON i.key = ${base.invoice} + l.n
        ORDER BY l.n, l.j`,
      [org],
    );
    // The keys set above are past the identity sequences: the app's inserts start after.
    for (const table of ['account', 'product', 'invoice', 'invoice_line']) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('${table}', 'key'), (SELECT max(key) FROM ${table}))`,
      );
    }
    await timed('commit (deferred key checks)', 'COMMIT');
    loaded = { organizationKey: org, unitKeys, ownerUsers };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
  // Statistics for the planner, and the visibility map and hint bits set now, so that the
  // first server to read the rows does not pay for writing them (and autovacuum, whose
  // insert threshold these rows pass, does not start during a run).
  await timed('VACUUM (ANALYZE)', 'VACUUM (ANALYZE) account, product, invoice, invoice_line');
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, counts: { ...COUNTS, lines }, ...loaded };
}

module.exports = { loadLargeData, COUNTS };
