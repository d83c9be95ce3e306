import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { systemScope } from '../access/access.tenant';
import type { FeedRow } from '../changes/change-feed.repository';
import type { Environment } from '../config/environment';
import { Transaction } from '../database/transaction';
import { EventHandlers } from '../events/event-handlers.service';
import type { EventRouter, EventRoutes, RoutedEvent } from '../events/event-router';
import { JobEnvelope, JobQueue, QueueSettings } from '../queue/job-queue.service';
import { ownerOfRow } from '../model/owner';
import { DELIVERY_QUEUE, WebhookRepository, WebhookRoute } from './webhook.repository';
import { WebhookDeliveries } from './webhook-deliveries.service';
import { deliveryRetries, DeliveryJob } from './webhook-jobs';

/** Webhooks of every organization are routed and delivered from one queue. */
const DELIVERY = systemScope('webhook-delivery');

/** Batches of deliveries under way at once per instance: a slow receiver holds up one. */
const DELIVERY_WORKERS = 2;

/**
 * Routes the change log's events to the organization's active webhooks: read in each
 * dispatcher pass, so a webhook made, changed or turned off counts from the next pass.
 * The pass makes their first attempts and records them (WebhookDeliveries.dispatch);
 * the queue makes the rest.
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
    const webhooks = await this.repository.routes(DELIVERY, tx);
    if (webhooks.length === 0) return undefined;
    const byEvent = new Map<string, WebhookRoute[]>();
    for (const webhook of webhooks) {
      for (const event of webhook.events.split(', ')) {
        const id = `${webhook.organization} ${event}`;
        byEvent.set(id, [...(byEvent.get(id) ?? []), webhook]);
      }
    }
    const webhooksOf = (entry: FeedRow) =>
      byEvent.get(`${entry.idOrganization} ${entry.entity}.${entry.operation}`) ?? [];
    return {
      wants: (entry) => webhooksOf(entry).length > 0,
      send: (events, sendTx) =>
        this.deliveries.dispatch(
          events.flatMap(({ entry, event }: RoutedEvent) =>
            webhooksOf(entry).map((webhook) => ({
              webhook,
              event,
              entryKey: entry.key,
              owner: ownerOfRow(entryOwner(entry)),
              organization: entry.idOrganization,
              actor: entry.idActor,
            })),
          ),
          sendTx,
        ),
    };
  }
}

function entryOwner(entry: FeedRow): Record<string, unknown> {
  return {
    id_organization: entry.idOrganization,
    id_business_unit: entry.idBusinessUnit,
    id_user: entry.idUser,
  };
}
