import { SetMetadata } from '@nestjs/common';
import type { QueueSettings } from '../queue/job-queue.service';
import { EVENT_OPERATIONS, EventOperation } from './entity-event';

export const ON_ENTITY_EVENT = 'atrium:on-entity-event';
export const JOB_HANDLER = 'atrium:job';

export interface SubscriberOptions {
  /**
   * Events one instance handles at once (1): of different records only, a record's events
   * are handled one after the other, in order, at any concurrency.
   */
  concurrency?: number;
}

export interface EntityEventSubscription extends SubscriberOptions {
  entity: string;
  operations: EventOperation[];
}

/**
 * Runs the method after a write of `entity` commits, once per matching change-log entry:
 * `(event: EntityEvent, context: HandlerContext)` (event-handlers.service.ts). A job of its own, tried again with
 * backoff when it throws, in order per record; at least once (the event's id tells a
 * repeat). It cannot undo the write, which committed before it ran.
 */
export function OnEntityEvent(
  entity: string,
  operations: EventOperation[] = EVENT_OPERATIONS.filter((o) => o !== 'version_added'),
  options: SubscriberOptions = {},
): MethodDecorator {
  return SetMetadata(ON_ENTITY_EVENT, {
    entity,
    operations,
    ...options,
  } satisfies EntityEventSubscription);
}

export interface JobHandlerOptions extends Pick<
  QueueSettings,
  'retryLimit' | 'retryDelay' | 'retryBackoff' | 'retryDelayMax' | 'expireInSeconds'
> {
  /** A cron expression (UTC): the job is sent at each of its times, once across instances. */
  schedule?: string;
  /** Jobs of this name one instance runs at once (1). */
  concurrency?: number;
}

/**
 * Runs the method for each job named `name`: `(data, context: HandlerContext)`, `data` as
 * sent (ScopedData.sendJob, inside the sender's transaction), or null for a scheduled one.
 */
export function Job(name: string, options: JobHandlerOptions = {}): MethodDecorator {
  return SetMetadata(JOB_HANDLER, { name, ...options });
}
