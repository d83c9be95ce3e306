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
      const sql = `SELECT t0."number" AS "number", t0."status" AS "status", t0."total" AS "total", t0."issue_date" AS "issue_date", t1."name" AS "a.name", t1."country" AS "a.country", (t0."issue_date")::text AS "#o0", t0."key" AS "#o1" FROM "invoice" t0 INNER JOIN "account" t1 ON t1."key" = t0."id_account" AND ${account} WHERE ${root} AND ((t0."status" = ANY(${statuses})) AND t0."total" > ${total}) ORDER BY "issue_date" DESC, t0."key" ASC LIMIT ${limit}`;
      return { sql, params: params.values };
    },
    hidden: ['#o0', '#o1'],
  },
  [AGGREGATE]: {
    compile(rowsSql) {
      const params = new SqlParameters();
      const root = rowsSql('t0', params);
      const limit = params.bind(5000, 'int8');
      const sql = `SELECT t0."status" AS "status", (date_trunc('month', t0."issue_date" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS "month", count(*) AS "invoices", sum(t0."total") AS "revenue" FROM "invoice" t0 WHERE ${root} GROUP BY t0."status", (date_trunc('month', t0."issue_date" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') ORDER BY "month" ASC, "status" ASC LIMIT ${limit}`;
      return { sql, params: params.values };
    },
    hidden: [],
  },
};

module.exports = { LIST, AGGREGATE, COMPILED, SqlParameters };
