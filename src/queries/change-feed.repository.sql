-- The SQL of src/changes/change-feed.repository.ts: written by npm run sql:generate, checked by CI.

-- ChangeFeedRepository.horizon
-- arguments: <transaction>
SELECT change_log_horizon() AS horizon;

-- ChangeFeedRepository.next
-- arguments: <system scope event-dispatch>, {"from":1,"to":100,"after":0}, [1], {"operations":["created"],"limit":500,"entities":["invoice"]}, <transaction>
-- tenancy: across organizations, system scope event-dispatch: the events' dispatcher reads every organization's change log
WITH fresh AS MATERIALIZED (
  SELECT c.*, true AS fresh FROM change_log c
  WHERE transaction_id >= $1 AND transaction_id < $2 AND key > $3
  AND id_parent_entry IS NULL AND operation = ANY($4::text[])
  ORDER BY key LIMIT $5
  ), candidates AS MATERIALIZED (
  SELECT * FROM fresh
  UNION ALL
  SELECT c.*, false FROM change_log c WHERE key = ANY($6::int8[])
  ), unread AS (
  SELECT u.root_entity, u.root_key, min(u.key) AS key FROM change_log u
  WHERE (u.transaction_id >= $2
  OR (u.transaction_id >= $1 AND u.key > (SELECT coalesce(max(key), $3) FROM fresh)))
  AND u.id_parent_entry IS NULL AND u.operation = ANY($4::text[])
  AND (u.root_entity, u.root_key) IN (SELECT root_entity, root_key FROM candidates)
  GROUP BY u.root_entity, u.root_key
  )
  SELECT key, date_created AS "dateCreated", operation, entity,
  record_key AS "recordKey", id_parent_entry AS "idParentEntry", changes, detail,
  id_actor AS "idActor", actor_name AS "actorName", via, request_id AS "requestId",
  transaction_id AS "transactionId", id_organization AS "idOrganization",
  id_business_unit AS "idBusinessUnit", id_user AS "idUser", root_entity AS "rootEntity", root_key AS "rootKey", fresh, waits FROM (
  SELECT c.*, coalesce(u.key < c.key, false) AS waits
  FROM candidates c
  LEFT JOIN unread u ON u.root_entity = c.root_entity AND u.root_key = c.root_key
  UNION ALL
  SELECT c.*, NULL, NULL FROM change_log c
  WHERE c.transaction_id IN (SELECT transaction_id FROM candidates
  WHERE entity = ANY($7::text[]))
  AND c.id_parent_entry IS NOT NULL
  ) read
  ORDER BY key;

-- ChangeFeedRepository.recordWrite
-- arguments: <tenant 1>, 1
-- tenancy: bound to its tenant
SELECT key, date_created AS "dateCreated", operation, entity,
  record_key AS "recordKey", id_parent_entry AS "idParentEntry", changes, detail,
  id_actor AS "idActor", actor_name AS "actorName", via, request_id AS "requestId",
  transaction_id AS "transactionId", id_organization AS "idOrganization",
  id_business_unit AS "idBusinessUnit", id_user AS "idUser", root_entity AS "rootEntity", root_key AS "rootKey" FROM change_log
  WHERE id_organization = $2
  AND transaction_id = (SELECT transaction_id FROM change_log
  WHERE key = $1 AND id_organization = $2)
  AND (key = $1 OR id_parent_entry IS NOT NULL)
  ORDER BY key;
