import type { ConfigService } from '@nestjs/config';
import type { Environment } from '../config/environment';
import type { EntityEvent } from '../events/entity-event';
import type { Owner } from '../model/owner';
import type { QueueSettings } from '../queue/job-queue.service';

/** A delivery job: an event for one webhook, with the record's owner at the time. */
export interface EventDelivery {
  webhook: number;
  event: EntityEvent;
  owner: Owner;
}

/** A delivery made ready by a request (a test, a replay): its row exists. */
export interface ReadyDelivery {
  webhook: number;
}

export type DeliveryJob = EventDelivery | ReadyDelivery;

/**
 * How deliveries are tried again: WEBHOOK_RETRIES times (counted by the attempts recorded:
 * an event's first is made before its job runs), waits doubling up to two hours.
 */
export function deliveryRetries(config: ConfigService<Environment, true>): QueueSettings {
  return {
    retryLimit: config.get('WEBHOOK_RETRIES', { infer: true }),
    retryDelay: firstRetrySeconds(config),
    retryBackoff: true,
    retryDelayMax: 7_200,
  };
}

/**
 * The wait before a delivery's first retry: WEBHOOK_RETRY_SECONDS, but at least four
 * timeouts: a first attempt (made at once) begins within the first three or is left to its
 * job, and has ended, with a timeout to spare for recording it, before its job comes due.
 */
export function firstRetrySeconds(config: ConfigService<Environment, true>): number {
  const timeoutMs = config.get('WEBHOOK_TIMEOUT_MS', { infer: true });
  return Math.max(
    config.get('WEBHOOK_RETRY_SECONDS', { infer: true }),
    Math.ceil((4 * timeoutMs) / 1000),
  );
}
