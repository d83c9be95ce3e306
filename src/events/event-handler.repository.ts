import { Injectable } from '@nestjs/common';
import { GenerateSql } from '../database/generate-sql';
import { pgJson } from '../database/pg-json';
import { Sql } from '../database/sql.service';

/** A subscriber or a scheduled job, as an instance announces it. */
export interface AnnouncedHandler {
  queue: string;
  /** A subscriber's type and operations… */
  entity: string | null;
  operations: string[] | null;
  /** …or a job's schedule (cron). */
  schedule: string | null;
}

/** How long an announcement counts: three of an instance's heartbeats. */
export const ANNOUNCEMENT_SECONDS = 90;

const SAMPLE_INSTANCE = '00000000-0000-0000-0000-000000000001';

/**
 * What each instance that works queues announces it runs (event_handler): its rows,
 * refreshed by its heartbeat and withdrawn at its stop; another's go stale once it stops
 * beating (a crash).
 */
@Injectable()
export class EventHandlerRepository {
  constructor(private readonly sql: Sql) {}

  /** The instance's handlers, in place of what it announced before. */
  @GenerateSql({
    params: [
      SAMPLE_INSTANCE,
      [{ queue: 'event/Mailer.sent', entity: 'invoice', operations: ['created'], schedule: null }],
    ],
  })
  async announce(instance: string, handlers: AnnouncedHandler[]): Promise<void> {
    await this.sql.run(
      `WITH gone AS (
         DELETE FROM event_handler
          WHERE instance = $1 OR announced_at < now() - interval '1 day'
       )
       INSERT INTO event_handler (instance, queue, entity, operations, schedule)
       SELECT $1, h.queue, h.entity, h.operations, h.schedule
         FROM json_to_recordset($2::json) AS h(queue text, entity text, operations text[],
                schedule text)`,
      [instance, pgJson(handlers)],
    );
  }

  @GenerateSql({ params: [SAMPLE_INSTANCE] })
  async heartbeat(instance: string): Promise<void> {
    await this.sql.run('UPDATE event_handler SET announced_at = now() WHERE instance = $1', [
      instance,
    ]);
  }

  @GenerateSql({ params: [SAMPLE_INSTANCE] })
  async withdraw(instance: string): Promise<void> {
    await this.sql.run('DELETE FROM event_handler WHERE instance = $1', [instance]);
  }

  /** The jobs other live instances schedule. */
  @GenerateSql({ params: [SAMPLE_INSTANCE] })
  async scheduledElsewhere(instance: string): Promise<string[]> {
    const rows = await this.sql.rows<{ queue: string }>(
      `SELECT DISTINCT queue FROM event_handler
        WHERE schedule IS NOT NULL AND instance <> $1
          AND announced_at > now() - make_interval(secs => $2)`,
      [instance, ANNOUNCEMENT_SECONDS],
    );
    return rows.map(({ queue }) => queue);
  }
}
