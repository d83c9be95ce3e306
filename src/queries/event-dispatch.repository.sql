-- The SQL of src/events/event-dispatch.repository.ts: written by npm run sql:generate, checked by CI.

-- EventDispatchRepository.lock
-- arguments: "events", <transaction>
SELECT range_from AS "rangeFrom", range_to AS "rangeTo",
  done_key AS "doneKey", pending,
  (last_pass IS NULL OR now() > last_pass) AS later, change_log_horizon() AS horizon,
  (SELECT coalesce(jsonb_agg(DISTINCT jsonb_build_object('queue', h.queue,
  'entity', h.entity, 'operations', h.operations)), '[]')
  FROM event_handler h
  WHERE h.entity IS NOT NULL
  AND h.announced_at > now() - make_interval(secs => $2)) AS subscribers
  FROM event_dispatch WHERE name = $1 FOR UPDATE SKIP LOCKED;

-- EventDispatchRepository.save
-- arguments: "events", {"rangeFrom":1,"rangeTo":100,"doneKey":0,"pending":[],"later":true}, <transaction>
UPDATE event_dispatch SET range_from = $2, range_to = $3, done_key = $4, pending = $5::int8[],
  last_pass = now()
  WHERE name = $1;

-- EventDispatchRepository.start
-- arguments: "events", 100, <transaction>
INSERT INTO event_dispatch (name, range_from, range_to) VALUES ($1, $2, $2)
  ON CONFLICT (name) DO NOTHING;
