import type { ConfigService } from '@nestjs/config';
import type { DeliveryState } from './entities/webhook-delivery.entity';
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

/**
 * A delivery whose row exists (a test's or replay's, made by its request; an event's,
 * attempted first by its dispatcher pass): `delivery` names it by its job's id when this
 * job is not that one (sent again from the dead letters).
 */
export interface ReadyDelivery {
  webhook: number;
  delivery?: string;
}

export type DeliveryJob = EventDelivery | ReadyDelivery;

/** What a delivery job's run does, with what it does it to. */
export type DeliveryStep<W, D> =
  /** Nothing: its webhook is gone, its delivery ended, or it has none to make. */
  | { step: 'none' }
  /** Its event's webhook was turned off since: the delivery is cancelled. */
  | { step: 'cancel'; existing: D }
  /** The delivery as made before (a retry, a test's, a replay's), attempted again… */
  | { step: 'resend'; webhook: W; existing: D; last: boolean }
  /** …or an event's, decided now and attempted; `last`: no attempt follows. */
  | { step: 'decide'; webhook: W; work: EventDelivery; last: boolean };

/**
 * The step of a run of `job` for `webhook` (undefined: deleted) and its delivery as
 * recorded (undefined: none yet). A failed delivery's job runs again only when an
 * administrator retries its dead letter: one more attempt, its last.
 */
export function stepOf<W extends { active: boolean }, D extends { state: DeliveryState }>(
  job: { retryCount: number; retryLimit: number; data: DeliveryJob },
  webhook: W | undefined,
  existing: D | undefined,
): DeliveryStep<W, D> {
  if (!webhook || existing?.state === 'delivered' || existing?.state === 'cancelled') {
    return { step: 'none' };
  }
  const work = job.data;
  const isEvent = 'event' in work;
  if (isEvent && !webhook.active) return existing ? { step: 'cancel', existing } : { step: 'none' };
  const last = job.retryCount >= job.retryLimit || existing?.state === 'failed';
  if (existing) return { step: 'resend', webhook, existing, last };
  return isEvent ? { step: 'decide', webhook, work, last } : { step: 'none' };
}

/**
 * How deliveries are tried again: WEBHOOK_RETRIES times (a job that follows an attempt made
 * by the dispatcher has one retry fewer), waits doubling up to two hours. A run is bounded
 * by two timeouts (its turn among this instance's attempts, then its own) and the time to
 * record it: a run its instance died with is taken back once that has passed.
 */
export function deliveryRetries(config: ConfigService<Environment, true>): QueueSettings {
  const timeoutSeconds = config.get('WEBHOOK_TIMEOUT_MS', { infer: true }) / 1000;
  return {
    retryLimit: config.get('WEBHOOK_RETRIES', { infer: true }),
    retryDelay: firstRetrySeconds(config),
    retryBackoff: true,
    retryDelayMax: 7_200,
    expireInSeconds: Math.ceil(2 * timeoutSeconds) + RECORDING_SECONDS,
  };
}

/** How long a delivery job's run may take beside its attempts: reading and recording. */
const RECORDING_SECONDS = 10;

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
