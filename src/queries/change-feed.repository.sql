-- The SQL of src/changes/change-feed.repository.ts: written by npm run sql:generate, checked by CI.

-- ChangeFeedRepository.childEntries
-- arguments: <system scope event-dispatch>, [1], <transaction>
-- tenancy: across organizations, system scope event-dispatch: the events' dispatcher reads every organization's change log
SELECT key, date_created AS "dateCreated", operation, entity,
  record_key AS "recordKey", id_parent_entry AS "idParentEntry", changes, detail,
  id_actor AS "idActor", actor_name AS "actorName", via, request_id AS "requestId",
  transaction_id AS "transactionId", id_organization AS "idOrganization",
  id_business_unit AS "idBusinessUnit", id_user AS "idUser", root_entity AS "rootEntity", root_key AS "rootKey" FROM change_log
  WHERE transaction_id >= $2 AND transaction_id <= $3 AND transaction_id = ANY($1::int8[])
  AND id_parent_entry IS NOT NULL
  ORDER BY key;

-- ChangeFeedRepository.entries
-- arguments: <system scope event-dispatch>, [1], <transaction>
-- tenancy: across organizations, system scope event-dispatch: the events' dispatcher reads every organization's change log
SELECT key, date_created AS "dateCreated", operation, entity,
  record_key AS "recordKey", id_parent_entry AS "idParentEntry", changes, detail,
  id_actor AS "idActor", actor_name AS "actorName", via, request_id AS "requestId",
  transaction_id AS "transactionId", id_organization AS "idOrganization",
  id_business_unit AS "idBusinessUnit", id_user AS "idUser", root_entity AS "rootEntity", root_key AS "rootKey" FROM change_log WHERE key = ANY($1::int8[]) ORDER BY key;

-- ChangeFeedRepository.horizon
-- arguments: <transaction>
SELECT change_log_horizon() AS horizon;

-- ChangeFeedRepository.recordEntries
-- arguments: <system scope event-dispatch>, {"from":1,"to":100,"after":0}, ["created"], 500, <transaction>
-- tenancy: across organizations, system scope event-dispatch: the events' dispatcher reads every organization's change log
SELECT key, date_created AS "dateCreated", operation, entity,
  record_key AS "recordKey", id_parent_entry AS "idParentEntry", changes, detail,
  id_actor AS "idActor", actor_name AS "actorName", via, request_id AS "requestId",
  transaction_id AS "transactionId", id_organization AS "idOrganization",
  id_business_unit AS "idBusinessUnit", id_user AS "idUser", root_entity AS "rootEntity", root_key AS "rootKey" FROM change_log
  WHERE transaction_id >= $1 AND transaction_id < $2 AND key > $3
  AND id_parent_entry IS NULL AND operation = ANY($4::text[])
  ORDER BY key LIMIT $5;

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

-- ChangeFeedRepository.unread
-- arguments: <system scope event-dispatch>, {"from":1,"to":100,"after":0}, ["invoice"], [1], ["created"], 10, <transaction>
-- tenancy: across organizations, system scope event-dispatch: the events' dispatcher reads every organization's change log
SELECT root_entity AS "rootEntity", root_key AS "rootKey", key FROM change_log
  WHERE transaction_id >= $1 AND NOT (transaction_id < $2 AND key <= $3)
  AND root_entity = ANY($4::text[]) AND root_key = ANY($5::int8[])
  AND id_parent_entry IS NULL AND operation = ANY($6::text[]) AND key < $7;
