import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setTimeout } from 'node:timers/promises';
import { systemScope } from '../access/access.tenant';
import type { FeedRow } from '../changes/change-feed.repository';
import type { Environment } from '../config/environment';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { EventHandlers } from '../events/event-handlers.service';
import type { EventRouter, EventRoutes, RoutedEvent } from '../events/event-router';
import { uuidOfKeys } from '../queue/job-id';
import { JobEnvelope, JobQueue, QueueSettings } from '../queue/job-queue.service';
import { ownerOfRow } from '../model/owner';
import { DELIVERY_QUEUE, WebhookRepository } from './webhook.repository';
import { WebhookDeliveries } from './webhook-deliveries.service';
import { deliveryRetries, DeliveryJob, EventDelivery, firstRetrySeconds } from './webhook-jobs';

/** Webhooks of every organization are routed and delivered from one queue. */
const DELIVERY = systemScope('webhook-delivery');

/** Batches of deliveries under way at once per instance: a slow receiver holds up one. */
const DELIVERY_WORKERS = 2;
/** Deliveries whose first attempt this instance holds in memory, at most; more go the queue's way. */
const FIRST_ATTEMPTS_HELD = 1_000;
/** At shutdown, how long attempts already sent may take to be answered and recorded. */
const SHUTDOWN_WAIT_MS = 5_000;

/**
 * Routes the change log's events to the organization's active webhooks: read in each
 * dispatcher pass, so a webhook made, changed or turned off counts from the next pass.
 * An event becomes one job per webhook, whose id is made of both keys (sent once).
 *
 * The job is written by the dispatcher's transaction, due at the first retry's time; the
 * dispatching instance makes the first attempt as soon as that commits, and removes the job
 * unless a retry is wanted. So a delivery that succeeds costs the queue an insert and a
 * delete, not a fetch and a completion too; and a crash before the attempt is recorded
 * loses nothing: the job makes it when due.
 */
@Injectable()
export class WebhookRouter implements EventRouter, OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookRouter.name);
  private readonly concurrency: number;
  private readonly retries: QueueSettings;
  /** When a delivery's job comes due, after its dispatch. */
  private readonly firstRetryMs: number;
  /**
   * How late after its dispatch a first attempt may still begin: it ends, and is recorded,
   * before its job is due.
   */
  private readonly attemptWithinMs: number;
  private held = 0;
  private readonly attempting = new Set<Promise<void>>();
  private closing = false;

  constructor(
    private readonly handlers: EventHandlers,
    private readonly repository: WebhookRepository,
    private readonly queue: JobQueue,
    private readonly deliveries: WebhookDeliveries,
    private readonly transactions: Transactions,
    config: ConfigService<Environment, true>,
  ) {
    this.concurrency = config.get('WEBHOOK_CONCURRENCY', { infer: true });
    this.retries = deliveryRetries(config);
    const timeoutMs = config.get('WEBHOOK_TIMEOUT_MS', { infer: true });
    this.firstRetryMs = firstRetrySeconds(config) * 1000;
    this.attemptWithinMs = this.firstRetryMs - 3 * timeoutMs;
  }

  onModuleInit(): void {
    this.handlers.addRouter(this);
  }

  async beforeApplicationShutdown(): Promise<void> {
    // No new first attempts; those sent get a few seconds to be answered and recorded while
    // the database is up. The jobs of the others make them.
    this.closing = true;
    // The timer holds no process open once they have ended.
    await Promise.race([
      Promise.all(this.attempting),
      setTimeout(SHUTDOWN_WAIT_MS, undefined, { ref: false }),
    ]);
  }

  async declare(): Promise<void> {
    await this.queue.declare(DELIVERY_QUEUE, this.retries);
    await this.queue.workBatches<JobEnvelope<DeliveryJob>>(
      DELIVERY_QUEUE,
      (jobs) => this.deliveries.runBatch(jobs),
      { batchSize: this.concurrency, workers: DELIVERY_WORKERS },
    );
  }

  async routes(tx: Transaction): Promise<EventRoutes | undefined> {
    const webhooks = await this.repository.routes(DELIVERY, tx);
    if (webhooks.length === 0) return undefined;
    const byEvent = new Map<string, number[]>();
    for (const { key, organization, events } of webhooks) {
      for (const event of events.split(', ')) {
        const id = `${organization} ${event}`;
        byEvent.set(id, [...(byEvent.get(id) ?? []), key]);
      }
    }
    const webhooksOf = (entry: FeedRow) =>
      byEvent.get(`${entry.idOrganization} ${entry.entity}.${entry.operation}`) ?? [];
    return {
      wants: (entry) => webhooksOf(entry).length > 0,
      send: (events, sendTx) => this.send(events, webhooksOf, sendTx),
    };
  }

  private async send(
    events: RoutedEvent[],
    webhooksOf: (entry: FeedRow) => number[],
    tx: Transaction,
  ): Promise<void> {
    const jobs = events.flatMap(({ entry, event }) =>
      webhooksOf(entry).map((webhook) => ({
        id: uuidOfKeys(webhook, entry.key),
        name: DELIVERY_QUEUE,
        retryCount: 0,
        data: {
          organization: entry.idOrganization,
          actor: entry.idActor,
          payload: { webhook, event, owner: ownerOfRow(entryOwner(entry)) },
        } satisfies JobEnvelope<EventDelivery>,
      })),
    );
    // Past what it may hold, the jobs are due at once: any instance's workers take them.
    const attemptHere =
      this.queue.works && !this.closing && this.held + jobs.length <= FIRST_ATTEMPTS_HELD;
    const startAfter = attemptHere ? this.firstRetryMs / 1000 : 0;
    await this.queue.insert(
      DELIVERY_QUEUE,
      jobs.map(({ id, data }) => ({ id, data, startAfter })),
      tx,
    );
    if (!attemptHere) return;
    const startBy = Date.now() + this.attemptWithinMs;
    const mayStart = () => !this.closing && Date.now() < startBy;
    // Counted once committed: a pass that rolls back holds nothing.
    this.transactions.afterCommit(tx, () => {
      this.held += jobs.length;
      const attempt = this.deliveries
        .attemptFirst(jobs, mayStart)
        .catch((error: unknown) =>
          this.logger.error(error, 'first delivery attempts failed; their jobs make them'),
        )
        .finally(() => {
          this.held -= jobs.length;
          this.attempting.delete(attempt);
        });
      this.attempting.add(attempt);
    });
  }
}

function entryOwner(entry: FeedRow): Record<string, unknown> {
  return {
    id_organization: entry.idOrganization,
    id_business_unit: entry.idBusinessUnit,
    id_user: entry.idUser,
  };
}
