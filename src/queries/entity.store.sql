-- The SQL of src/entity/entity.store.ts for the demo types, as the requests named make it, each bound to its caller's tenant: written by npm run sql:generate, checked by CI.

-- POST /rest/entity/invoice (an invoice with two lines), as admin
START TRANSACTION;
INSERT INTO "invoice" ("id_account", "currency", "total", "id_organization", "id_business_unit", "id_user") SELECT * FROM (VALUES ($1::int8, $2::text, $3::numeric, $4::int8, $5::int8, $6::int8)) v WHERE (SELECT count(*) FROM "account" t
  WHERE t.key = ANY($7::int8[]) AND t."id_organization" = $8::int8) = $9::int8
  RETURNING "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "number", "id_account", "status", "issue_date", "currency", "total";
INSERT INTO "invoice_line" ("quantity", "unit_price", "description", "amount", "id_invoice", "id_organization", "id_business_unit", "id_user") VALUES ($1, $2, $3, $4, $5, $6, $7, $8), ($9, $10, $11, $12, $13, $14, $15, $16)
  RETURNING "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount";
-- (system scope change-log)
WITH v AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(ord int4, "parentOrd" int4,
  operation text, entity text, "recordKey" int8, "rootEntity" text, "rootKey" int8,
  "organizationKey" int8, "businessUnitKey" int8, "userKey" int8, changes jsonb,
  detail jsonb, "actorKey" int8, "actorName" text, via text, "requestId" text)
  ), numbered AS MATERIALIZED (
  SELECT v.*, nextval('change_log_key_seq') AS key FROM v ORDER BY ord
  )
  INSERT INTO change_log (key, id_parent_entry, operation, entity, record_key,
  root_entity, root_key, id_organization, id_business_unit, id_user, changes, detail,
  id_actor, actor_name, via, request_id, transaction_id, date_created)
  SELECT n.key, p.key, n.operation, n.entity, n."recordKey", n."rootEntity", n."rootKey",
  n."organizationKey", n."businessUnitKey", n."userKey", n.changes, n.detail,
  n."actorKey", n."actorName", n.via, n."requestId", pg_current_xact_id()::text::int8,
  -- Milliseconds, as the API shows the time: an asOf of the shown time includes it.
  date_trunc('milliseconds', statement_timestamp())
  FROM numbered n LEFT JOIN numbered p ON p.ord = n."parentOrd"
  ORDER BY n.ord;
COMMIT;

-- GET /rest/entity/invoice/{key} (with its lines), as admin
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "number", "id_account", "status", "issue_date", "currency", "total" FROM "invoice" t
  WHERE t.key = $1::int8 AND t."id_organization" = $2::int8;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount" FROM "invoice_line" t
  WHERE t."id_invoice" = ANY($1::int8[])
  AND t."id_organization" = $2::int8 ORDER BY t.key;

-- POST /rest/entity/invoice/{key} (a property, one line kept and changed, one new, one gone), as admin
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "number", "id_account", "status", "issue_date", "currency", "total" FROM "invoice" t
  WHERE t.key = $1::int8 AND t."id_organization" = $2::int8;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount" FROM "invoice_line" t
  WHERE t."id_invoice" = ANY($1::int8[])
  AND t."id_organization" = $2::int8 ORDER BY t.key;
START TRANSACTION;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "number", "id_account", "status", "issue_date", "currency", "total" FROM "invoice" t
  WHERE t.key = $1::int8 AND t."id_organization" = $2::int8 FOR UPDATE;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount" FROM "invoice_line" t
  WHERE t."id_invoice" = ANY($1::int8[])
  AND t."id_organization" = $2::int8 ORDER BY t.key;
UPDATE "invoice" t
  SET "currency" = CASE WHEN s0 THEN v0 ELSE t."currency" END, "total" = CASE WHEN s1 THEN v1 ELSE t."total" END, date_updated = now()
  FROM (VALUES ($5::int8, $1::text, $2::bool, $3::numeric, $4::bool)) AS v(key, v0, s0, v1, s1)
  WHERE t.key = v.key AND t."id_organization" = $6::int8 RETURNING t."key", t."id_organization", t."id_business_unit", t."id_user", t."uuid", t."date_created", t."date_updated", t."extended", t."number", t."id_account", t."status", t."issue_date", t."currency", t."total";
DELETE FROM "invoice_line" t
  WHERE t.key = ANY($1::int8[]) AND t."id_organization" = $2::int8;
UPDATE "invoice_line" t
  SET "quantity" = CASE WHEN s0 THEN v0 ELSE t."quantity" END, "amount" = CASE WHEN s1 THEN v1 ELSE t."amount" END, date_updated = now()
  FROM (VALUES ($5::int8, $1::int4, $2::bool, $3::numeric, $4::bool)) AS v(key, v0, s0, v1, s1)
  WHERE t.key = v.key AND t."id_organization" = $6::int8 RETURNING t."key", t."id_organization", t."id_business_unit", t."id_user", t."uuid", t."date_created", t."date_updated", t."extended", t."id_invoice", t."id_product", t."description", t."quantity", t."unit_price", t."amount";
INSERT INTO "invoice_line" ("quantity", "unit_price", "description", "amount", "id_invoice", "id_organization", "id_business_unit", "id_user") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  RETURNING "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount";
-- (system scope change-log)
WITH v AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(ord int4, "parentOrd" int4,
  operation text, entity text, "recordKey" int8, "rootEntity" text, "rootKey" int8,
  "organizationKey" int8, "businessUnitKey" int8, "userKey" int8, changes jsonb,
  detail jsonb, "actorKey" int8, "actorName" text, via text, "requestId" text)
  ), numbered AS MATERIALIZED (
  SELECT v.*, nextval('change_log_key_seq') AS key FROM v ORDER BY ord
  )
  INSERT INTO change_log (key, id_parent_entry, operation, entity, record_key,
  root_entity, root_key, id_organization, id_business_unit, id_user, changes, detail,
  id_actor, actor_name, via, request_id, transaction_id, date_created)
  SELECT n.key, p.key, n.operation, n.entity, n."recordKey", n."rootEntity", n."rootKey",
  n."organizationKey", n."businessUnitKey", n."userKey", n.changes, n.detail,
  n."actorKey", n."actorName", n.via, n."requestId", pg_current_xact_id()::text::int8,
  -- Milliseconds, as the API shows the time: an asOf of the shown time includes it.
  date_trunc('milliseconds', statement_timestamp())
  FROM numbered n LEFT JOIN numbered p ON p.ord = n."parentOrd"
  ORDER BY n.ord;
COMMIT;

-- DELETE /rest/entity/invoice/{key}, as admin
START TRANSACTION;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "number", "id_account", "status", "issue_date", "currency", "total" FROM "invoice" t
  WHERE t.key = $1::int8 AND t."id_organization" = $2::int8 FOR UPDATE;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount" FROM "invoice_line" t
  WHERE t."id_invoice" = ANY($1::int8[])
  AND t."id_organization" = $2::int8 ORDER BY t.key;
DELETE FROM "invoice" t
  WHERE t.key = ANY($1::int8[]) AND t."id_organization" = $2::int8;
-- (system scope change-log)
WITH v AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(ord int4, "parentOrd" int4,
  operation text, entity text, "recordKey" int8, "rootEntity" text, "rootKey" int8,
  "organizationKey" int8, "businessUnitKey" int8, "userKey" int8, changes jsonb,
  detail jsonb, "actorKey" int8, "actorName" text, via text, "requestId" text)
  ), numbered AS MATERIALIZED (
  SELECT v.*, nextval('change_log_key_seq') AS key FROM v ORDER BY ord
  )
  INSERT INTO change_log (key, id_parent_entry, operation, entity, record_key,
  root_entity, root_key, id_organization, id_business_unit, id_user, changes, detail,
  id_actor, actor_name, via, request_id, transaction_id, date_created)
  SELECT n.key, p.key, n.operation, n.entity, n."recordKey", n."rootEntity", n."rootKey",
  n."organizationKey", n."businessUnitKey", n."userKey", n.changes, n.detail,
  n."actorKey", n."actorName", n.via, n."requestId", pg_current_xact_id()::text::int8,
  -- Milliseconds, as the API shows the time: an asOf of the shown time includes it.
  date_trunc('milliseconds', statement_timestamp())
  FROM numbered n LEFT JOIN numbered p ON p.ord = n."parentOrd"
  ORDER BY n.ord;
COMMIT;

-- POST /rest/entity/contact (a lookup to an account), as admin
START TRANSACTION;
INSERT INTO "contact" ("last_name", "id_account", "id_organization", "id_business_unit", "id_user") SELECT * FROM (VALUES ($1::text, $2::int8, $3::int8, $4::int8, $5::int8)) v WHERE (SELECT count(*) FROM "account" t
  WHERE t.key = ANY($6::int8[]) AND t."id_organization" = $7::int8) = $8::int8
  RETURNING "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "first_name", "last_name", "email", "id_account";
-- (system scope change-log)
WITH v AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(ord int4, "parentOrd" int4,
  operation text, entity text, "recordKey" int8, "rootEntity" text, "rootKey" int8,
  "organizationKey" int8, "businessUnitKey" int8, "userKey" int8, changes jsonb,
  detail jsonb, "actorKey" int8, "actorName" text, via text, "requestId" text)
  ), numbered AS MATERIALIZED (
  SELECT v.*, nextval('change_log_key_seq') AS key FROM v ORDER BY ord
  )
  INSERT INTO change_log (key, id_parent_entry, operation, entity, record_key,
  root_entity, root_key, id_organization, id_business_unit, id_user, changes, detail,
  id_actor, actor_name, via, request_id, transaction_id, date_created)
  SELECT n.key, p.key, n.operation, n.entity, n."recordKey", n."rootEntity", n."rootKey",
  n."organizationKey", n."businessUnitKey", n."userKey", n.changes, n.detail,
  n."actorKey", n."actorName", n.via, n."requestId", pg_current_xact_id()::text::int8,
  -- Milliseconds, as the API shows the time: an asOf of the shown time includes it.
  date_trunc('milliseconds', statement_timestamp())
  FROM numbered n LEFT JOIN numbered p ON p.ord = n."parentOrd"
  ORDER BY n.ord;
COMMIT;

-- POST /rest/entity/invoice (an invoice with two lines), as sara.sales
START TRANSACTION;
INSERT INTO "invoice" ("id_account", "currency", "total", "id_organization", "id_business_unit", "id_user") SELECT * FROM (VALUES ($1::int8, $2::text, $3::numeric, $4::int8, $5::int8, $6::int8)) v WHERE (SELECT count(*) FROM "account" t
  WHERE t.key = ANY($7::int8[]) AND t."id_organization" = $8::int8 AND t."id_business_unit" = $9::int8) = $10::int8
  RETURNING "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "number", "id_account", "status", "issue_date", "currency", "total";
INSERT INTO "invoice_line" ("quantity", "unit_price", "description", "amount", "id_invoice", "id_organization", "id_business_unit", "id_user") VALUES ($1, $2, $3, $4, $5, $6, $7, $8), ($9, $10, $11, $12, $13, $14, $15, $16)
  RETURNING "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount";
-- (system scope change-log)
WITH v AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(ord int4, "parentOrd" int4,
  operation text, entity text, "recordKey" int8, "rootEntity" text, "rootKey" int8,
  "organizationKey" int8, "businessUnitKey" int8, "userKey" int8, changes jsonb,
  detail jsonb, "actorKey" int8, "actorName" text, via text, "requestId" text)
  ), numbered AS MATERIALIZED (
  SELECT v.*, nextval('change_log_key_seq') AS key FROM v ORDER BY ord
  )
  INSERT INTO change_log (key, id_parent_entry, operation, entity, record_key,
  root_entity, root_key, id_organization, id_business_unit, id_user, changes, detail,
  id_actor, actor_name, via, request_id, transaction_id, date_created)
  SELECT n.key, p.key, n.operation, n.entity, n."recordKey", n."rootEntity", n."rootKey",
  n."organizationKey", n."businessUnitKey", n."userKey", n.changes, n.detail,
  n."actorKey", n."actorName", n.via, n."requestId", pg_current_xact_id()::text::int8,
  -- Milliseconds, as the API shows the time: an asOf of the shown time includes it.
  date_trunc('milliseconds', statement_timestamp())
  FROM numbered n LEFT JOIN numbered p ON p.ord = n."parentOrd"
  ORDER BY n.ord;
COMMIT;

-- GET /rest/entity/invoice/{key} (with its lines), as sara.sales
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "number", "id_account", "status", "issue_date", "currency", "total" FROM "invoice" t
  WHERE t.key = $1::int8 AND t."id_organization" = $2::int8 AND t."id_business_unit" = $3::int8;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount" FROM "invoice_line" t
  WHERE t."id_invoice" = ANY($1::int8[])
  AND t."id_organization" = $2::int8 AND t."id_business_unit" = $3::int8 ORDER BY t.key;

-- POST /rest/entity/invoice/{key} (a property, one line kept and changed, one new, one gone), as sara.sales
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "number", "id_account", "status", "issue_date", "currency", "total" FROM "invoice" t
  WHERE t.key = $1::int8 AND t."id_organization" = $2::int8 AND t."id_business_unit" = $3::int8;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount" FROM "invoice_line" t
  WHERE t."id_invoice" = ANY($1::int8[])
  AND t."id_organization" = $2::int8 AND t."id_business_unit" = $3::int8 ORDER BY t.key;
START TRANSACTION;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "number", "id_account", "status", "issue_date", "currency", "total" FROM "invoice" t
  WHERE t.key = $1::int8 AND t."id_organization" = $2::int8 AND t."id_business_unit" = $3::int8 FOR UPDATE;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount" FROM "invoice_line" t
  WHERE t."id_invoice" = ANY($1::int8[])
  AND t."id_organization" = $2::int8 AND t."id_business_unit" = $3::int8 ORDER BY t.key;
UPDATE "invoice" t
  SET "currency" = CASE WHEN s0 THEN v0 ELSE t."currency" END, "total" = CASE WHEN s1 THEN v1 ELSE t."total" END, date_updated = now()
  FROM (VALUES ($5::int8, $1::text, $2::bool, $3::numeric, $4::bool)) AS v(key, v0, s0, v1, s1)
  WHERE t.key = v.key AND t."id_organization" = $6::int8 AND t."id_user" = $7::int8 RETURNING t."key", t."id_organization", t."id_business_unit", t."id_user", t."uuid", t."date_created", t."date_updated", t."extended", t."number", t."id_account", t."status", t."issue_date", t."currency", t."total";
DELETE FROM "invoice_line" t
  WHERE t.key = ANY($1::int8[]) AND t."id_organization" = $2::int8 AND t."id_user" = $3::int8;
UPDATE "invoice_line" t
  SET "quantity" = CASE WHEN s0 THEN v0 ELSE t."quantity" END, "amount" = CASE WHEN s1 THEN v1 ELSE t."amount" END, date_updated = now()
  FROM (VALUES ($5::int8, $1::int4, $2::bool, $3::numeric, $4::bool)) AS v(key, v0, s0, v1, s1)
  WHERE t.key = v.key AND t."id_organization" = $6::int8 AND t."id_user" = $7::int8 RETURNING t."key", t."id_organization", t."id_business_unit", t."id_user", t."uuid", t."date_created", t."date_updated", t."extended", t."id_invoice", t."id_product", t."description", t."quantity", t."unit_price", t."amount";
INSERT INTO "invoice_line" ("quantity", "unit_price", "description", "amount", "id_invoice", "id_organization", "id_business_unit", "id_user") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  RETURNING "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount";
-- (system scope change-log)
WITH v AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(ord int4, "parentOrd" int4,
  operation text, entity text, "recordKey" int8, "rootEntity" text, "rootKey" int8,
  "organizationKey" int8, "businessUnitKey" int8, "userKey" int8, changes jsonb,
  detail jsonb, "actorKey" int8, "actorName" text, via text, "requestId" text)
  ), numbered AS MATERIALIZED (
  SELECT v.*, nextval('change_log_key_seq') AS key FROM v ORDER BY ord
  )
  INSERT INTO change_log (key, id_parent_entry, operation, entity, record_key,
  root_entity, root_key, id_organization, id_business_unit, id_user, changes, detail,
  id_actor, actor_name, via, request_id, transaction_id, date_created)
  SELECT n.key, p.key, n.operation, n.entity, n."recordKey", n."rootEntity", n."rootKey",
  n."organizationKey", n."businessUnitKey", n."userKey", n.changes, n.detail,
  n."actorKey", n."actorName", n.via, n."requestId", pg_current_xact_id()::text::int8,
  -- Milliseconds, as the API shows the time: an asOf of the shown time includes it.
  date_trunc('milliseconds', statement_timestamp())
  FROM numbered n LEFT JOIN numbered p ON p.ord = n."parentOrd"
  ORDER BY n.ord;
COMMIT;

-- DELETE /rest/entity/invoice/{key}, as sara.sales
START TRANSACTION;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "number", "id_account", "status", "issue_date", "currency", "total" FROM "invoice" t
  WHERE t.key = $1::int8 AND t."id_organization" = $2::int8 AND t."id_business_unit" = $3::int8 FOR UPDATE;
SELECT "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "id_invoice", "id_product", "description", "quantity", "unit_price", "amount" FROM "invoice_line" t
  WHERE t."id_invoice" = ANY($1::int8[])
  AND t."id_organization" = $2::int8 AND t."id_business_unit" = $3::int8 ORDER BY t.key;
DELETE FROM "invoice" t
  WHERE t.key = ANY($1::int8[]) AND t."id_organization" = $2::int8 AND t."id_user" = $3::int8;
-- (system scope change-log)
WITH v AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(ord int4, "parentOrd" int4,
  operation text, entity text, "recordKey" int8, "rootEntity" text, "rootKey" int8,
  "organizationKey" int8, "businessUnitKey" int8, "userKey" int8, changes jsonb,
  detail jsonb, "actorKey" int8, "actorName" text, via text, "requestId" text)
  ), numbered AS MATERIALIZED (
  SELECT v.*, nextval('change_log_key_seq') AS key FROM v ORDER BY ord
  )
  INSERT INTO change_log (key, id_parent_entry, operation, entity, record_key,
  root_entity, root_key, id_organization, id_business_unit, id_user, changes, detail,
  id_actor, actor_name, via, request_id, transaction_id, date_created)
  SELECT n.key, p.key, n.operation, n.entity, n."recordKey", n."rootEntity", n."rootKey",
  n."organizationKey", n."businessUnitKey", n."userKey", n.changes, n.detail,
  n."actorKey", n."actorName", n.via, n."requestId", pg_current_xact_id()::text::int8,
  -- Milliseconds, as the API shows the time: an asOf of the shown time includes it.
  date_trunc('milliseconds', statement_timestamp())
  FROM numbered n LEFT JOIN numbered p ON p.ord = n."parentOrd"
  ORDER BY n.ord;
COMMIT;

-- POST /rest/entity/contact (a lookup to an account), as sara.sales
START TRANSACTION;
INSERT INTO "contact" ("last_name", "id_account", "id_organization", "id_business_unit", "id_user") SELECT * FROM (VALUES ($1::text, $2::int8, $3::int8, $4::int8, $5::int8)) v WHERE (SELECT count(*) FROM "account" t
  WHERE t.key = ANY($6::int8[]) AND t."id_organization" = $7::int8 AND t."id_business_unit" = $8::int8) = $9::int8
  RETURNING "key", "id_organization", "id_business_unit", "id_user", "uuid", "date_created", "date_updated", "extended", "first_name", "last_name", "email", "id_account";
-- (system scope change-log)
WITH v AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(ord int4, "parentOrd" int4,
  operation text, entity text, "recordKey" int8, "rootEntity" text, "rootKey" int8,
  "organizationKey" int8, "businessUnitKey" int8, "userKey" int8, changes jsonb,
  detail jsonb, "actorKey" int8, "actorName" text, via text, "requestId" text)
  ), numbered AS MATERIALIZED (
  SELECT v.*, nextval('change_log_key_seq') AS key FROM v ORDER BY ord
  )
  INSERT INTO change_log (key, id_parent_entry, operation, entity, record_key,
  root_entity, root_key, id_organization, id_business_unit, id_user, changes, detail,
  id_actor, actor_name, via, request_id, transaction_id, date_created)
  SELECT n.key, p.key, n.operation, n.entity, n."recordKey", n."rootEntity", n."rootKey",
  n."organizationKey", n."businessUnitKey", n."userKey", n.changes, n.detail,
  n."actorKey", n."actorName", n.via, n."requestId", pg_current_xact_id()::text::int8,
  -- Milliseconds, as the API shows the time: an asOf of the shown time includes it.
  date_trunc('milliseconds', statement_timestamp())
  FROM numbered n LEFT JOIN numbered p ON p.ord = n."parentOrd"
  ORDER BY n.ord;
COMMIT;
