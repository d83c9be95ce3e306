'use strict';
/**
 * The FETCH scenarios of issue 5, and for the baseline the SQL the app compiles them to
 * (copied from its statements on the wire; bench/run.js compares the two and warns when
 * they drift). `compile(scope, rowsSql)` binds in the app's order: the root's access
 * predicate first, then the filter's values, a link's predicate, the limit. `hidden` are
 * the columns the app reads for its cursor and takes out.
 */
const LIST = `FETCH invoice (number, status, total, issue_date) { account AS a TO id_account (name, country) } WHERE status IN ('issued', 'paid') AND total > 100 ORDER BY issue_date DESC LIMIT 50`;

const AGGREGATE = `FETCH invoice (status, MONTH(issue_date) AS month, COUNT(*) AS invoices, SUM(total) AS revenue) GROUP BY status, month ORDER BY month, status`;

// src/database/sql.ts: values bound as parameters, `$n` or `$n::type`.
class SqlParameters {
  values = [];
  bind(value, cast) {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}

const COMPILED = {
  [LIST]: {
    compile(rowsSql) {
      const params = new SqlParameters();
      const root = rowsSql('t0', params);
      const statuses = params.bind(['issued', 'paid'], '"invoice_status_enum"[]');
      const total = params.bind('100', 'numeric');
      const account = rowsSql('t1', params);
      const limit = params.bind(50, 'int8');
      const sql = `SELECT t0."number" AS "number", t0."status" AS "status", t0."total" AS "total", t0."issue_date" AS "issue_date", t1."name" AS "a.name", t1."country" AS "a.country", (t0."issue_date")::text AS "#o0", t0."key" AS "#o1" FROM (SELECT * FROM "invoice" t0 WHERE ${root} AND ((t0."status" = ANY(${statuses})) AND t0."total" > ${total}) ORDER BY t0."issue_date" DESC, t0."key" ASC LIMIT ${limit}) t0 INNER JOIN "account" t1 ON t1."key" = t0."id_account" AND ${account} ORDER BY "issue_date" DESC, t0."key" ASC`;
      return { sql, params: params.values };
    },
    hidden: ['#o0', '#o1'],
  },
  [AGGREGATE]: {
    compile(rowsSql) {
      const params = new SqlParameters();
      const root = rowsSql('t0', params);
      const limit = params.bind(5000, 'int8');
      const sql = `SELECT t0."status" AS "status", to_char(date_trunc('month', t0."issue_date" AT TIME ZONE 'UTC'), 'YYYY-MM') AS "month", count(*) AS "invoices", sum(t0."total") AS "revenue" FROM "invoice" t0 WHERE ${root} GROUP BY t0."status", to_char(date_trunc('month', t0."issue_date" AT TIME ZONE 'UTC'), 'YYYY-MM') ORDER BY "month" ASC, "status" ASC LIMIT ${limit}`;
      return { sql, params: params.values };
    },
    hidden: [],
  },
};

// ---- The large data set's FETCH scenarios (issue 19, BENCH_DATA=large) ------------------
// There the baseline does not copy the app's SQL: it runs the best SQL a person would write
// by hand for the same answer (same rows, same keys, same order), so the comparison shows
// what the app's compiled SQL costs as well as its framework.

/** Invoices and revenue by status, of the accounts whose name starts with A. */
const LARGE_AGGREGATE = `FETCH invoice (status, COUNT(*) AS invoices, SUM(total) AS revenue) { account AS a TO id_account WHERE name LIKE 'A%' } GROUP BY status ORDER BY status`;

/** The 50 largest invoices of a status, with their account's name. */
const largeList = (status) =>
  `FETCH invoice (number, status, total) { account AS a TO id_account (name) } WHERE status = '${status}' ORDER BY total DESC LIMIT 50`;
/**
 * The list's statuses. Not draft: the create scenario adds drafts (with totals that can
 * reach the top 50), and the list's answers are checked against those taken before it.
 */
const LARGE_LIST_STATUSES = ['issued', 'paid', 'cancelled'];

const HAND_WRITTEN = {
  // One GROUP BY over the join; both tables limited to the caller's rows.
  [LARGE_AGGREGATE]: {
    compile(rowsSql) {
      const params = new SqlParameters();
      const sql = `SELECT i.status, count(*) AS invoices, sum(i.total) AS revenue
        FROM invoice i JOIN account a ON a.key = i.id_account
       WHERE ${rowsSql('i', params)} AND ${rowsSql('a', params)} AND a.name LIKE ${params.bind('A%')}
       GROUP BY i.status ORDER BY i.status`;
      return { sql, params: params.values };
    },
    hidden: [],
  },
  // Limit first: the top 50 from the invoice table alone, then their 50 accounts. The
  // same rows as the join-then-limit the query says, as every invoice's account exists
  // (a foreign key) and is the invoice's organization's. Ties in total go by key, as
  // the app orders them (it appends the key for its cursor).
  ...Object.fromEntries(
    LARGE_LIST_STATUSES.map((status) => [
      largeList(status),
      {
        compile(rowsSql) {
          const params = new SqlParameters();
          const top = `SELECT i.key, i.number, i.status, i.total, i.id_account FROM invoice i
           WHERE ${rowsSql('i', params)} AND i.status = ${params.bind(status)}
           ORDER BY i.total DESC, i.key LIMIT 50`;
          const sql = `SELECT t.number, t.status, t.total, a.name AS "a.name"
            FROM (${top}) t JOIN account a ON a.key = t.id_account AND ${rowsSql('a', params)}
           ORDER BY t.total DESC, t.key`;
          return { sql, params: params.values };
        },
        hidden: [],
      },
    ]),
  ),
};

module.exports = {
  LIST,
  AGGREGATE,
  COMPILED,
  SqlParameters,
  LARGE_AGGREGATE,
  largeList,
  LARGE_LIST_STATUSES,
  HAND_WRITTEN,
};
