-- The SQL of src/queue/jobs.repository.ts: written by npm run sql:generate, checked by CI.

-- JobsRepository.deleteWaiting
-- arguments: "webhook-delivery", ["00000000-0000-0000-0000-000000000000"]
DELETE FROM pgboss.job WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'created';

-- JobsRepository.failed
-- arguments: <tenant 1>, 50
SELECT id::text, name AS queue, output->>'message' AS error, retry_count + 1 AS attempts,
  created_on AS "createdOn", completed_on AS "failedAt"
  FROM pgboss.job
  WHERE state = 'failed' AND data->>'organization' = $1::int8::text
  ORDER BY completed_on DESC, id
  LIMIT $2;

-- JobsRepository.queueOfFailed
-- arguments: <tenant 1>, "00000000-0000-0000-0000-000000000000"
SELECT name AS queue FROM pgboss.job
  WHERE id = $1::uuid AND state = 'failed' AND data->>'organization' = $2::int8::text;
