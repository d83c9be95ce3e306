-- The SQL of src/fetch/fetch.compiler.ts for the demo types, as the requests named make it, each bound to its caller's tenant: written by npm run sql:generate, checked by CI.

-- FETCH invoice (number, status, total) { account AS a TO id_account (name) } WHERE status IN ('issued', 'paid') ORDER BY total DESC LIMIT 5, as admin
SELECT t0."number" AS "number", t0."status" AS "status", t0."total" AS "total", t1."name" AS "a.name", t0."total" AS "#o0", t0."key" AS "#o1" FROM (SELECT * FROM "invoice" t0 WHERE t0."id_organization" = $1::int8 AND ((t0."status" = ANY($2::"invoice_status_enum"[]))) ORDER BY t0."total" DESC, t0."key" ASC LIMIT $4::int8) t0 INNER JOIN "account" t1 ON t1."key" = t0."id_account" AND t1."id_organization" = $3::int8 ORDER BY "total" DESC, t0."key" ASC;

-- FETCH invoice (status, MONTH(issue_date) AS month, COUNT(*) AS n, SUM(total) AS revenue) GROUP BY status, month ORDER BY month, status, as admin
SELECT t0."status" AS "status", to_char(date_trunc('month', t0."issue_date" AT TIME ZONE 'UTC'), 'YYYY-MM') AS "month", count(*) AS "n", sum(t0."total") AS "revenue" FROM "invoice" t0 WHERE t0."id_organization" = $1::int8 GROUP BY t0."status", to_char(date_trunc('month', t0."issue_date" AT TIME ZONE 'UTC'), 'YYYY-MM') ORDER BY "month" ASC, "status" ASC LIMIT $2::int8;

-- FETCH account (name, country) { invoice AS draft EXISTS FROM id_account TO key WHERE status = 'draft' } ORDER BY name LIMIT 20, as admin
SELECT t0."name" AS "name", t0."country" AS "country", t0."name" AS "#o0", t0."key" AS "#o1" FROM (SELECT * FROM "account" t0 WHERE t0."id_organization" = $1::int8 AND EXISTS (SELECT 1 FROM "invoice" t1 WHERE t1."id_account" = t0."key" AND t1."id_organization" = $2::int8 AND (t1."status" = $3::"invoice_status_enum")) ORDER BY t0."name" ASC, t0."key" ASC LIMIT $4::int8) t0 ORDER BY "name" ASC, t0."key" ASC;

-- FETCH invoice (number) { invoice_line FROM id_invoice TO key (quantity, amount) } WHERE number LIKE 'INV-%' LIMIT 3, as admin
SELECT t0."number" AS "number", t1."quantity" AS "invoice_line.quantity", t1."amount" AS "invoice_line.amount" FROM "invoice" t0 INNER JOIN "invoice_line" t1 ON t1."id_invoice" = t0."key" AND t1."id_organization" = $3::int8 WHERE t0."id_organization" = $1::int8 AND (t0."number" LIKE $2) LIMIT $4::int8;

-- FETCH invoice (number, status, total) { account AS a TO id_account (name) } WHERE status IN ('issued', 'paid') ORDER BY total DESC LIMIT 5, as sara.sales
SELECT t0."number" AS "number", t0."status" AS "status", t0."total" AS "total", t1."name" AS "a.name", t0."total" AS "#o0", t0."key" AS "#o1" FROM "invoice" t0 INNER JOIN "account" t1 ON t1."key" = t0."id_account" AND t1."id_organization" = $4::int8 AND t1."id_business_unit" = $5::int8 WHERE t0."id_organization" = $1::int8 AND t0."id_business_unit" = $2::int8 AND ((t0."status" = ANY($3::"invoice_status_enum"[]))) ORDER BY "total" DESC, t0."key" ASC LIMIT $6::int8;

-- FETCH invoice (status, MONTH(issue_date) AS month, COUNT(*) AS n, SUM(total) AS revenue) GROUP BY status, month ORDER BY month, status, as sara.sales
SELECT t0."status" AS "status", to_char(date_trunc('month', t0."issue_date" AT TIME ZONE 'UTC'), 'YYYY-MM') AS "month", count(*) AS "n", sum(t0."total") AS "revenue" FROM "invoice" t0 WHERE t0."id_organization" = $1::int8 AND t0."id_business_unit" = $2::int8 GROUP BY t0."status", to_char(date_trunc('month', t0."issue_date" AT TIME ZONE 'UTC'), 'YYYY-MM') ORDER BY "month" ASC, "status" ASC LIMIT $3::int8;

-- FETCH account (name, country) { invoice AS draft EXISTS FROM id_account TO key WHERE status = 'draft' } ORDER BY name LIMIT 20, as sara.sales
SELECT t0."name" AS "name", t0."country" AS "country", t0."name" AS "#o0", t0."key" AS "#o1" FROM (SELECT * FROM "account" t0 WHERE t0."id_organization" = $1::int8 AND t0."id_business_unit" = $2::int8 AND EXISTS (SELECT 1 FROM "invoice" t1 WHERE t1."id_account" = t0."key" AND t1."id_organization" = $3::int8 AND t1."id_business_unit" = $4::int8 AND (t1."status" = $5::"invoice_status_enum")) ORDER BY t0."name" ASC, t0."key" ASC LIMIT $6::int8) t0 ORDER BY "name" ASC, t0."key" ASC;

-- FETCH invoice (number) { invoice_line FROM id_invoice TO key (quantity, amount) } WHERE number LIKE 'INV-%' LIMIT 3, as sara.sales
SELECT t0."number" AS "number", t1."quantity" AS "invoice_line.quantity", t1."amount" AS "invoice_line.amount" FROM "invoice" t0 INNER JOIN "invoice_line" t1 ON t1."id_invoice" = t0."key" AND t1."id_organization" = $4::int8 AND t1."id_business_unit" = $5::int8 WHERE t0."id_organization" = $1::int8 AND t0."id_business_unit" = $2::int8 AND (t0."number" LIKE $3) LIMIT $6::int8;
