import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { FeedRow } from '../changes/change-feed.repository';
import type { Environment } from '../config/environment';
import { Transaction } from '../database/transaction';
import { EventHandlers } from '../events/event-handlers.service';
import type { EventRouter, EventRoutes, RoutedEvent } from '../events/event-router';
import { uuidOfKeys } from '../queue/job-id';
import { JobEnvelope, JobQueue, QueueSettings } from '../queue/job-queue.service';
import { ownerOfRow } from '../model/owner';
import { DELIVERY_QUEUE, WebhookRepository } from './webhook.repository';
import { WebhookDeliveries } from './webhook-deliveries.service';
import { deliveryRetries, DeliveryJob, EventDelivery } from './webhook-jobs';

/** Batches of deliveries under way at once per instance: a slow receiver holds up one. */
const DELIVERY_WORKERS = 2;

/**
 * Routes the change log's events to the organization's active webhooks: read in each
 * dispatcher pass, so a webhook made, changed or turned off counts from the next pass.
 * An event becomes one job per webhook, whose id is made of both keys (sent once).
 */
@Injectable()
export class WebhookRouter implements EventRouter, OnModuleInit {
  private readonly concurrency: number;
  private readonly retries: QueueSettings;

  constructor(
    private readonly handlers: EventHandlers,
    private readonly repository: WebhookRepository,
    private readonly queue: JobQueue,
    private readonly deliveries: WebhookDeliveries,
    config: ConfigService<Environment, true>,
  ) {
    this.concurrency = config.get('WEBHOOK_CONCURRENCY', { infer: true });
    this.retries = deliveryRetries(config);
  }

  onModuleInit(): void {
    this.handlers.addRouter(this);
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
    const webhooks = await this.repository.routes(tx);
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
        data: {
          organization: entry.idOrganization,
          actor: entry.idActor,
          payload: { webhook, event, owner: ownerOfRow(entryOwner(entry)) },
        } satisfies JobEnvelope<EventDelivery>,
      })),
    );
    await this.queue.insert(DELIVERY_QUEUE, jobs, tx);
  }
}

function entryOwner(entry: FeedRow): Record<string, unknown> {
  return {
    id_organization: entry.idOrganization,
    id_business_unit: entry.idBusinessUnit,
    id_user: entry.idUser,
  };
}
