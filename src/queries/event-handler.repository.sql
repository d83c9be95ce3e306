-- The SQL of src/events/event-handler.repository.ts: written by npm run sql:generate, checked by CI.

-- EventHandlerRepository.announce
-- arguments: "00000000-0000-0000-0000-000000000001", [{"queue":"event/Mailer.sent","entity":"invoice","operations":["created"],"schedule":null}]
WITH gone AS (
  DELETE FROM event_handler
  WHERE instance = $1 OR announced_at < now() - interval '1 day'
  )
  INSERT INTO event_handler (instance, queue, entity, operations, schedule)
  SELECT $1, h.queue, h.entity, h.operations, h.schedule
  FROM json_to_recordset($2::json) AS h(queue text, entity text, operations text[],
  schedule text);

-- EventHandlerRepository.heartbeat
-- arguments: "00000000-0000-0000-0000-000000000001"
UPDATE event_handler SET announced_at = now() WHERE instance = $1;

-- EventHandlerRepository.scheduledElsewhere
-- arguments: "00000000-0000-0000-0000-000000000001"
SELECT DISTINCT queue FROM event_handler
  WHERE schedule IS NOT NULL AND instance <> $1
  AND announced_at > now() - make_interval(secs => $2);

-- EventHandlerRepository.withdraw
-- arguments: "00000000-0000-0000-0000-000000000001"
DELETE FROM event_handler WHERE instance = $1;
