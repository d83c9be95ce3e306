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

/** How deliveries are tried again: WEBHOOK_RETRIES times, waits doubling up to two hours. */
export function deliveryRetries(config: ConfigService<Environment, true>): QueueSettings {
  return {
    retryLimit: config.get('WEBHOOK_RETRIES', { infer: true }),
    retryDelay: config.get('WEBHOOK_RETRY_SECONDS', { infer: true }),
    retryBackoff: true,
    retryDelayMax: 7_200,
  };
}
