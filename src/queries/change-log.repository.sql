-- The SQL of src/changes/change-log.repository.ts: written by npm run sql:generate, checked by CI.

-- ChangeLogRepository.childEntries
-- arguments: <tenant 1>, "invoice", 1, [1], 0
-- tenancy: bound to its tenant
SELECT key, date_created AS "dateCreated", operation, entity,
  record_key AS "recordKey", id_parent_entry AS "idParentEntry", changes, detail,
  id_actor AS "idActor", actor_name AS "actorName", via, request_id AS "requestId",
  transaction_id AS "transactionId", id_organization AS "idOrganization",
  id_business_unit AS "idBusinessUnit", id_user AS "idUser" FROM change_log
  WHERE root_entity = $1 AND root_key = $2 AND id_parent_entry IS NOT NULL
  AND transaction_id = ANY($3::int8[]) AND key > $4 AND id_organization = $5
  ORDER BY key;

-- ChangeLogRepository.createPartition
-- arguments: <system scope change-log>, 2026-01-01T00:00:00.000Z, <transaction>
SET LOCAL lock_timeout = '2s';
CREATE TABLE IF NOT EXISTS "change_log_2026_01" PARTITION OF change_log
  FOR VALUES FROM ('2026-01-01T00:00:00.000Z') TO ('2026-02-01T00:00:00.000Z');

-- ChangeLogRepository.dropPartition
-- arguments: <system scope change-log>, 2026-01-01T00:00:00.000Z, <transaction>
SET LOCAL lock_timeout = '2s';
DROP TABLE IF EXISTS "change_log_2026_01";

-- ChangeLogRepository.entriesUntil
-- arguments: <tenant 1>, "invoice", 1, 1970-01-01T00:00:00.000Z
-- tenancy: bound to its tenant
SELECT key, date_created AS "dateCreated", operation, entity,
  record_key AS "recordKey", id_parent_entry AS "idParentEntry", changes, detail,
  id_actor AS "idActor", actor_name AS "actorName", via, request_id AS "requestId",
  transaction_id AS "transactionId", id_organization AS "idOrganization",
  id_business_unit AS "idBusinessUnit", id_user AS "idUser" FROM change_log
  WHERE root_entity = $1 AND root_key = $2 AND date_created <= $3 AND id_organization = $4
  ORDER BY key;

-- ChangeLogRepository.insert
-- arguments: <system scope change-log>, [{"ord":0,"parentOrd":null,"operation":"created","entity":"organization","recordKey":1,"rootEntity":"organization","rootKey":1,"organizationKey":1,"businessUnitKey":1,"userKey":1,"changes":{},"detail":null,"actorKey":1,"actorName":"admin","via":"cli","requestId":null}], <transaction>
-- tenancy: across organizations, system scope change-log: the change log's writer writes each entry with its record's owner, and its partitions hold every organization's
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

-- ChangeLogRepository.latestWrite
-- arguments: <tenant 1>, "invoice", 1, ["deleted"]
-- tenancy: bound to its tenant
SELECT key, date_created AS "dateCreated", operation, entity,
  record_key AS "recordKey", id_parent_entry AS "idParentEntry", changes, detail,
  id_actor AS "idActor", actor_name AS "actorName", via, request_id AS "requestId",
  transaction_id AS "transactionId", id_organization AS "idOrganization",
  id_business_unit AS "idBusinessUnit", id_user AS "idUser" FROM change_log
  WHERE root_entity = $1 AND root_key = $2 AND id_parent_entry IS NULL
  AND operation = ANY($3::text[]) AND id_organization = $4
  ORDER BY key DESC LIMIT 1;

-- ChangeLogRepository.partitionMonths
-- arguments: <system scope change-log>
SELECT c.relname AS name FROM pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'change_log'::regclass ORDER BY c.relname;

-- ChangeLogRepository.purge
-- arguments: <tenant 1>, "invoice", 1, <transaction>
-- tenancy: bound to its tenant
DELETE FROM change_log WHERE root_entity = $1 AND root_key = $2 AND id_organization = $3;

-- ChangeLogRepository.recordEntries
-- arguments: <tenant 1>, "invoice", 1, {"operations":["updated"],"hidden":["signed_in"]}, 50
-- tenancy: bound to its tenant
SELECT key, date_created AS "dateCreated", operation, entity,
  record_key AS "recordKey", id_parent_entry AS "idParentEntry", changes, detail,
  id_actor AS "idActor", actor_name AS "actorName", via, request_id AS "requestId",
  transaction_id AS "transactionId", id_organization AS "idOrganization",
  id_business_unit AS "idBusinessUnit", id_user AS "idUser" FROM change_log
  WHERE root_entity = $1 AND root_key = $2 AND id_parent_entry IS NULL
  AND ($3::int8 IS NULL OR key < $3) AND ($4::timestamptz IS NULL OR date_created >= $4)
  AND ($5::timestamptz IS NULL OR date_created < $5) AND ($6::text[] IS NULL OR operation = ANY($6))
  AND operation <> ALL($8::text[]) AND id_organization = $9
  ORDER BY key DESC LIMIT $7;
