import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Webhook as Signer } from 'standardwebhooks';
import { systemScope } from '../access/access.tenant';
import { AccessScope } from '../access/access.scope';
import { AccessService } from '../access/access.service';
import { ChangeLog, SYSTEM_ACTOR } from '../changes/change-log.service';
import type { Identity } from '../common/identity';
import { Slots } from '../common/slots';
import type { Environment } from '../config/environment';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { readableChanges } from '../entity/readable-changes';
import type { ChildChange, EntityEvent } from '../events/entity-event';
import { JobIdentities } from '../events/job-identities.service';
import { EntityRegistry } from '../model/entity.registry';
import { JobQueue, type JobEnvelope, type QueuedJob } from '../queue/job-queue.service';
import type { DeliveryAttempt, DeliveryState } from './entities/webhook-delivery.entity';
import { WebhookAddresses, WebhookTargetError } from './webhook-addresses';
import { WebhookCondition } from './webhook-condition';
import { DeliveryJob, EventDelivery } from './webhook-jobs';
import { TransportResult, WebhookTransport } from './webhook-transport';
import {
  DELIVERY_QUEUE,
  NewDelivery,
  WebhookRepository,
  WebhookTarget,
} from './webhook.repository';

/** Webhooks of every organization are routed and delivered from one queue. */
const DELIVERY = systemScope('webhook-delivery');

/** A delivery to attempt, of a job of the batch. */
interface Planned {
  job: QueuedJob<unknown>;
  webhook: WebhookTarget;
  delivery: NewDelivery;
  /** Attempts recorded before this one. */
  attemptsBefore: number;
}

/** An attempt made, with the state it leaves its delivery in. */
interface Outcome extends Planned {
  attempt: DeliveryAttempt;
  state: DeliveryState;
}

/** A webhook's owner as its deliveries read: as the owner is now. */
interface Reader {
  identity: Identity;
  scope: AccessScope;
}

/** The event as a webhook's owner may read it, and whether something was left out. */
export type DeliveredEvent = EntityEvent & { withheld?: true };

/**
 * Makes a delivery's attempts. At the first, an event's delivery is decided and fixed: the
 * webhook's owner must read the record (at the time of the change) and the record meet the
 * condition; the body holds what the owner may read. Each attempt is signed afresh, sent to
 * the address checked for it, and recorded; a failed one is tried again by the queue, the
 * last marks the delivery failed, and a run of them turns the webhook off.
 */
@Injectable()
export class WebhookDeliveries {
  private readonly timeoutMs: number;
  private readonly disableAfter: number;
  private readonly retries: number;
  /** WEBHOOK_CONCURRENCY: this instance's attempts under way at once. */
  private readonly slots: Slots;

  constructor(
    private readonly repository: WebhookRepository,
    private readonly addresses: WebhookAddresses,
    private readonly transport: WebhookTransport,
    private readonly condition: WebhookCondition,
    private readonly identities: JobIdentities,
    private readonly access: AccessService,
    private readonly registry: EntityRegistry,
    private readonly transactions: Transactions,
    private readonly changeLog: ChangeLog,
    private readonly queue: JobQueue,
    config: ConfigService<Environment, true>,
  ) {
    this.timeoutMs = config.get('WEBHOOK_TIMEOUT_MS', { infer: true });
    this.disableAfter = config.get('WEBHOOK_DISABLE_AFTER', { infer: true });
    this.retries = config.get('WEBHOOK_RETRIES', { infer: true });
    this.slots = new Slots(config.get('WEBHOOK_CONCURRENCY', { infer: true }));
  }

  /**
   * A batch of delivery jobs from the queue (retries, tests, replays, and first attempts
   * the dispatching instance did not make): the jobs to try again, each with why.
   */
  async runBatch(jobs: QueuedJob<JobEnvelope<DeliveryJob>>[]): Promise<Map<string, Error>> {
    return (await this.deliver(jobs, { fresh: false })).tryAgain;
  }

  /**
   * The first attempts of deliveries just dispatched, whose jobs wait for the first retry's
   * time: the jobs that need no retry are removed. An attempt whose turn comes when
   * `mayStart` says no (late, behind receivers that hang; or the app is closing) is left to
   * its job.
   */
  async attemptFirst(
    jobs: QueuedJob<JobEnvelope<EventDelivery>>[],
    mayStart: () => boolean,
  ): Promise<void> {
    const { tryAgain, left } = await this.deliver(jobs, { fresh: true, mayStart });
    const done = jobs.filter(({ id }) => !tryAgain.has(id) && !left.has(id));
    await this.queue.remove(
      DELIVERY_QUEUE,
      done.map(({ id }) => id),
    );
  }

  /**
   * Jobs' deliveries: their webhooks, deliveries and owners read once for all, their
   * attempts made at once (WEBHOOK_CONCURRENCY of this instance's at a time) and recorded
   * by one statement. `fresh`: jobs just dispatched, with no delivery made yet.
   */
  private async deliver(
    jobs: QueuedJob<JobEnvelope<DeliveryJob>>[],
    { fresh, mayStart = () => true }: { fresh: boolean; mayStart?: () => boolean },
  ): Promise<{ tryAgain: Map<string, Error>; left: Set<string> }> {
    // A job that cannot be decided (its condition no longer compiles) fails alone.
    const tryAgain = new Map<string, Error>();
    const left = new Set<string>();
    const planned = await this.plan(jobs, fresh, tryAgain);
    const attempts = await Promise.all(
      planned.map(({ webhook, delivery }) =>
        this.slots.run(() =>
          mayStart() ? this.attempt(webhook, delivery) : Promise.resolve(undefined),
        ),
      ),
    );
    const outcomes: Outcome[] = [];
    planned.forEach((plan, i) => {
      const attempt = attempts[i];
      if (!attempt) return void left.add(plan.job.id);
      const delivered =
        attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;
      // The queue's own count too: a run that died before recording its attempt counts there.
      const last = plan.attemptsBefore >= this.retries || plan.job.retryCount >= this.retries;
      const state: DeliveryState = delivered ? 'delivered' : last ? 'failed' : 'retrying';
      outcomes.push({ ...plan, attempt, state });
    });
    if (outcomes.length === 0) return { tryAgain, left };
    const failures = outcomes.filter(({ state }) => state !== 'delivered');
    if (failures.length === 0) {
      await this.repository.recordAttempts(DELIVERY, outcomes);
    } else {
      await this.transactions.run(async (tx) => {
        await this.repository.recordAttempts(DELIVERY, outcomes, tx);
        for (const { webhook, attempt } of failures) await this.countFailure(webhook, attempt, tx);
      });
    }
    for (const { job, webhook, attempt, state } of failures) {
      if (state === 'retrying') {
        tryAgain.set(
          job.id,
          new Error(`webhook ${webhook.key}: ${failureOf(attempt)}; tried again later`),
        );
      }
    }
    return { tryAgain, left };
  }

  /**
   * The deliveries to attempt: an event's decided at its first attempt (made at that
   * attempt's end), a test's or replay's as asked for; none for a webhook deleted, or
   * turned off since the event (its delivery then cancelled).
   */
  private async plan(
    jobs: QueuedJob<JobEnvelope<DeliveryJob>>[],
    fresh: boolean,
    tryAgain: Map<string, Error>,
  ): Promise<Planned[]> {
    const webhooks = new Map(
      (
        await this.repository.targets(DELIVERY, [
          ...new Set(jobs.map((job) => job.data.payload.webhook)),
        ])
      ).map((webhook) => [webhook.key, webhook]),
    );
    const made = new Map(
      (fresh
        ? []
        : await this.repository.byJobs(
            DELIVERY,
            jobs.map((job) => job.id),
          )
      ).map((delivery) => [delivery.jobId, delivery]),
    );
    const readers = new Map<number, Promise<Reader | undefined>>();
    const readerOf = (webhook: WebhookTarget) => {
      if (!readers.has(webhook.owner)) readers.set(webhook.owner, this.readerOf(webhook));
      return readers.get(webhook.owner)!;
    };
    const planned: Planned[] = [];
    for (const job of jobs) {
      const work = job.data.payload;
      const webhook = webhooks.get(work.webhook);
      const existing = made.get(job.id);
      if (!webhook || (existing && existing.state !== 'pending' && existing.state !== 'retrying')) {
        continue;
      }
      const isEvent = 'event' in work;
      if (isEvent && !webhook.active) {
        if (existing) await this.repository.setState(DELIVERY, existing.key, 'cancelled');
        continue;
      }
      // Made before (a retry; a test's or replay's, made by its request): as it was made.
      if (existing) {
        planned.push({
          job,
          webhook,
          delivery: existing,
          attemptsBefore: existing.attempts.length,
        });
        continue;
      }
      if (!isEvent) continue;
      const payload = await this.payloadFor(webhook, work, await readerOf(webhook)).catch(
        (error: Error) => void tryAgain.set(job.id, error),
      );
      if (!payload) continue;
      const { id: eventId, type: eventType } = work.event;
      const delivery = { idWebhook: webhook.key, jobId: job.id, eventId, eventType, payload };
      planned.push({ job, webhook, delivery: { ...delivery, replayOf: null }, attemptsBefore: 0 });
    }
    return planned;
  }

  /** Whom a webhook's owner reads as, now; undefined when the owner is gone or inactive. */
  private async readerOf(webhook: WebhookTarget): Promise<Reader | undefined> {
    const identity = await this.identities.of(webhook.organization, webhook.owner, DELIVERY_QUEUE);
    return identity && { identity, scope: await this.access.scopeOf(identity) };
  }

  /** One attempt, signed now; its failure (a refused address too) recorded, never thrown. */
  private async attempt(webhook: WebhookTarget, delivery: NewDelivery): Promise<DeliveryAttempt> {
    const at = new Date();
    const started = performance.now();
    let result: TransportResult;
    try {
      const url = this.addresses.parse(webhook.url);
      const target = await this.addresses.target(url);
      const body = JSON.stringify(delivery.payload);
      const signature = new Signer(webhook.secret).sign(delivery.eventId, at, body);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Atrium-Webhooks',
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      };
      result = await this.transport.post(url, target, headers, body, this.timeoutMs);
    } catch (error) {
      if (!(error instanceof WebhookTargetError)) throw error;
      result = { error: `refused: ${error.message}` };
    }
    return {
      at: at.toISOString(),
      ...result,
      durationMs: Math.round(performance.now() - started),
    };
  }

  private async countFailure(
    webhook: WebhookTarget,
    attempt: DeliveryAttempt,
    tx: Transaction,
  ): Promise<void> {
    const reason = `Turned off after ${this.disableAfter} failed attempts in a row; the last: ${failureOf(attempt)}`;
    if (!(await this.repository.failed(DELIVERY, webhook.key, this.disableAfter, reason, tx)))
      return;
    this.changeLog.record(tx, SYSTEM_ACTOR, [
      {
        operation: 'updated',
        entity: 'webhook',
        recordKey: webhook.key,
        owner: {
          organizationKey: webhook.organization,
          businessUnitKey: webhook.businessUnit,
          userKey: webhook.owner,
        },
        changes: {
          active: { old: true, new: false },
          disabled_reason: { old: null, new: reason },
        },
      },
    ]);
  }

  /**
   * The body of an event's delivery, or undefined when it is not the webhook's to get: the
   * change came before the webhook, its owner cannot read the record (or is gone), or the
   * record does not meet the condition (a deleted one has none to meet).
   */
  private async payloadFor(
    webhook: WebhookTarget,
    { event, owner }: EventDelivery,
    reader: Reader | undefined,
  ): Promise<DeliveredEvent | undefined> {
    if (Date.parse(event.occurredAt) < webhook.dateCreated.getTime()) return undefined;
    const type = this.registry.find(event.entity);
    if (!reader || !type || reader.identity.organizationKey !== webhook.organization) {
      return undefined;
    }
    if (!reader.scope.allows(type, 'read', owner)) return undefined;
    if (webhook.condition && event.operation !== 'deleted' && event.key !== null) {
      const met = await this.condition.matches(
        reader.identity,
        event.entity,
        event.key,
        webhook.condition,
      );
      if (!met) return undefined;
    }
    return this.readable(reader.scope, event);
  }

  private readable(scope: AccessScope, event: EntityEvent): DeliveredEvent {
    let withheld = false;
    const cut = (entity: string, changes: Record<string, unknown>) => {
      const readable = readableChanges(scope, this.registry.find(entity), changes);
      withheld ||= readable.withheld;
      return readable.changes;
    };
    const children = (list: ChildChange[]): ChildChange[] =>
      list.map((child) => ({
        ...child,
        changes: cut(child.entity, child.changes),
        children: children(child.children),
      }));
    const shown: DeliveredEvent = {
      ...event,
      changes: cut(event.entity, event.changes),
      children: children(event.children),
    };
    if (withheld) shown.withheld = true;
    return shown;
  }
}

function failureOf({ status, error }: DeliveryAttempt): string {
  return error ?? `HTTP ${status}`;
}
