-- The SQL of src/webhooks/webhook.repository.ts: written by npm run sql:generate, checked by CI.

-- WebhookRepository.byJobs
-- arguments: <system scope webhook-delivery>, ["00000000-0000-0000-0000-000000000000"]
SELECT d.key, d.id_webhook AS "idWebhook", d.job_id AS "jobId",
  d.event_id AS "eventId", d.event_type AS "eventType", d.state, d.attempts,
  d.replay_of AS "replayOf", d.created_at AS "createdAt", d.payload FROM webhook_delivery d WHERE d.job_id = ANY($1::uuid[]);

-- WebhookRepository.deliveries
-- arguments: <tenant 1>, 1, null, 50
-- tenancy: bound to its tenant
SELECT d.key, d.id_webhook AS "idWebhook", d.job_id AS "jobId",
  d.event_id AS "eventId", d.event_type AS "eventType", d.state, d.attempts,
  d.replay_of AS "replayOf", d.created_at AS "createdAt" FROM webhook_delivery d
  JOIN webhook w ON w.key = d.id_webhook AND w.id_organization = $4
  WHERE d.id_webhook = $1 AND ($2::int8 IS NULL OR d.key < $2)
  ORDER BY d.key DESC LIMIT $3;

-- WebhookRepository.delivery
-- arguments: <tenant 1>, 1, 1
-- tenancy: bound to its tenant
SELECT d.key, d.id_webhook AS "idWebhook", d.job_id AS "jobId",
  d.event_id AS "eventId", d.event_type AS "eventType", d.state, d.attempts,
  d.replay_of AS "replayOf", d.created_at AS "createdAt", d.payload FROM webhook_delivery d
  JOIN webhook w ON w.key = d.id_webhook AND w.id_organization = $3
  WHERE d.id_webhook = $1 AND d.key = $2;

-- WebhookRepository.exists
-- arguments: <tenant 1>, 1
-- tenancy: bound to its tenant
SELECT 1 FROM webhook WHERE key = $1 AND id_organization = $2;

-- WebhookRepository.failed
-- arguments: <system scope webhook-delivery>, 1, 100, "failed", <transaction>
-- tenancy: across organizations, system scope webhook-delivery: webhook deliveries are worked from one queue for every organization
UPDATE webhook SET failures_in_row = failures_in_row + 1,
  active = active AND failures_in_row + 1 < $2,
  disabled_reason = CASE WHEN active AND failures_in_row + 1 >= $2 THEN $3
  ELSE disabled_reason END
  WHERE key = $1
  RETURNING disabled_reason = $3 AND failures_in_row = $2 AS "turnedOff";

-- WebhookRepository.insert
-- arguments: <tenant 1>, {"idWebhook":1,"jobId":"00000000-0000-0000-0000-000000000000","eventId":"1","eventType":"account.created","payload":{},"replayOf":null}, <transaction>
-- tenancy: bound to its tenant
INSERT INTO webhook_delivery (id_webhook, job_id, event_id, event_type, payload, replay_of)
  SELECT key, $2, $3, $4, $5, $6 FROM webhook WHERE key = $1 AND id_organization = $7
  ON CONFLICT (job_id) DO UPDATE SET job_id = EXCLUDED.job_id
  RETURNING key, id_webhook AS "idWebhook", job_id AS "jobId", event_id AS "eventId",
  event_type AS "eventType", payload, state, attempts, replay_of AS "replayOf",
  created_at AS "createdAt";

-- WebhookRepository.recordAttempts
-- arguments: <system scope webhook-delivery>, [{"delivery":{"idWebhook":1,"jobId":"00000000-0000-0000-0000-000000000000","eventId":"1","eventType":"account.created","payload":{},"replayOf":null},"attempt":{"at":"2026-01-01T00:00:00.000Z","status":200,"durationMs":5},"state":"delivered"}], <transaction>
-- tenancy: across organizations, system scope webhook-delivery: webhook deliveries are worked from one queue for every organization
WITH saved AS (
  INSERT INTO webhook_delivery
  (id_webhook, job_id, event_id, event_type, payload, replay_of, attempts, state)
  SELECT w.key, a.job_id, a.event_id, a.event_type, a.payload, a.replay_of,
  CASE WHEN a.attempt IS NULL THEN '[]' ELSE jsonb_build_array(a.attempt) END,
  a.state
  FROM json_to_recordset($1::json) AS a(id_webhook int8, job_id uuid, event_id text,
  event_type text, payload json, replay_of int8, attempt jsonb, state text)
  JOIN webhook w ON w.key = a.id_webhook
  ON CONFLICT (job_id) DO UPDATE
  SET attempts = webhook_delivery.attempts || EXCLUDED.attempts,
  -- Ended stays ended, but for a failed one retried by hand that gets through.
  state = CASE WHEN webhook_delivery.state IN ('delivered', 'cancelled')
  OR (webhook_delivery.state = 'failed' AND EXCLUDED.state <> 'delivered')
  THEN webhook_delivery.state ELSE EXCLUDED.state END
  RETURNING id_webhook, state)
  UPDATE webhook SET failures_in_row = 0
  WHERE key IN (SELECT id_webhook FROM saved WHERE state = 'delivered')
  AND failures_in_row <> 0;

-- WebhookRepository.routes
-- arguments: <system scope webhook-delivery>, <transaction>
-- tenancy: across organizations, system scope webhook-delivery: webhook deliveries are worked from one queue for every organization
SELECT key, id_organization AS organization, id_business_unit AS "businessUnit",
  id_user AS owner, url, condition, active, secret, date_created AS "dateCreated", events FROM webhook WHERE active;

-- WebhookRepository.secret
-- arguments: <tenant 1>, 1, <transaction>
-- tenancy: bound to its tenant
SELECT secret FROM webhook WHERE key = $1 AND id_organization = $2;

-- WebhookRepository.setSecret
-- arguments: <tenant 1>, 1, "whsec_c2VjcmV0", <transaction>
-- tenancy: bound to its tenant
UPDATE webhook SET secret = $2 WHERE key = $1 AND id_organization = $3
  RETURNING id_organization, id_business_unit, id_user;

-- WebhookRepository.setState
-- arguments: <system scope webhook-delivery>, 1, "cancelled"
UPDATE webhook_delivery SET state = $2 WHERE key = $1;

-- WebhookRepository.targets
-- arguments: <system scope webhook-delivery>, [1]
-- tenancy: across organizations, system scope webhook-delivery: webhook deliveries are worked from one queue for every organization
SELECT key, id_organization AS organization, id_business_unit AS "businessUnit",
  id_user AS owner, url, condition, active, secret, date_created AS "dateCreated" FROM webhook WHERE key = ANY($1::int8[]);
