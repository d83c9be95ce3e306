'use strict';
/**
 * The FETCH scenarios of issue 5, and for the baseline the SQL the app compiles them to
 * (copied from its statements on the wire; bench/run.js compares the two and warns when
 * they drift). `hidden` are the columns the app reads for its cursor and takes out.
 */
const LIST = `FETCH invoice (number, status, total, issue_date) { account AS a TO id_account (name, country) } WHERE status IN ('issued', 'paid') AND total > 100 ORDER BY issue_date DESC LIMIT 50`;

const AGGREGATE = `FETCH invoice (status, MONTH(issue_date) AS month, COUNT(*) AS invoices, SUM(total) AS revenue) GROUP BY status, month ORDER BY month, status`;

const COMPILED = {
  [LIST]: {
    sql: `SELECT t0."number" AS "number", t0."status" AS "status", t0."total" AS "total", t0."issue_date" AS "issue_date", t1."name" AS "a.name", t1."country" AS "a.country", t0."issue_date" AS "#o0", t0."key" AS "#o1" FROM "invoice" t0 INNER JOIN "account" t1 ON t1."key" = t0."id_account" AND t1."id_organization" = $1::int8 WHERE t0."id_organization" = $1::int8 AND ((t0."status" = ANY($2::"invoice_status_enum"[])) AND t0."total" > $3::numeric) ORDER BY "issue_date" DESC, t0."key" ASC LIMIT $4::int8`,
    params: (organizationKey) => [organizationKey, ['issued', 'paid'], '100', 50],
    hidden: ['#o0', '#o1'],
  },
  [AGGREGATE]: {
    sql: `SELECT t0."status" AS "status", (date_trunc('month', t0."issue_date" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS "month", count(*) AS "invoices", sum(t0."total") AS "revenue" FROM "invoice" t0 WHERE t0."id_organization" = $1::int8 GROUP BY t0."status", (date_trunc('month', t0."issue_date" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') ORDER BY "month" ASC, "status" ASC LIMIT $2::int8`,
    params: (organizationKey) => [organizationKey, 5000],
    hidden: [],
  },
};

module.exports = { LIST, AGGREGATE, COMPILED };
