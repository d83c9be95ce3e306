import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { tenantOf } from '../access/access.tenant';
import { actorOf, ChangeLog } from '../changes/change-log.service';
import { Identity } from '../common/identity';
import { DataService } from '../data/data.service';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { JobEnvelope, JobQueue } from '../queue/job-queue.service';
import { CreateWebhookDto, CreatedWebhookDto } from './dto/webhook.dto';
import { newSecret } from './webhook.hooks';
import { WebhookPayloads } from './webhook-payloads';
import {
  DELIVERY_QUEUE,
  DeliveryRow,
  DeliverySummary,
  NewDelivery,
  WebhookRepository,
} from './webhook.repository';
import type { ReadyDelivery } from './webhook-jobs';

/** The most deliveries one page of the log lists. */
export const DELIVERIES_LIMIT = 200;

/**
 * What holders of manage-webhooks (administrators) do with their organization's webhooks
 * beside the entity API (which reads, changes and deletes them): make one and see its
 * secret, get a new secret, send a test, read the delivery log, replay a delivery.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly data: DataService,
    private readonly transactions: Transactions,
    private readonly changeLog: ChangeLog,
    private readonly repository: WebhookRepository,
    private readonly queue: JobQueue,
    private readonly payloads: WebhookPayloads,
  ) {}

  /** Made through the entity engine as the caller (its rules, its change log), secret shown. */
  create(identity: Identity, dto: CreateWebhookDto): Promise<CreatedWebhookDto> {
    return this.data.transaction(identity, async (data) => {
      // The DTO names every property; those the client left out are not sent as nulls.
      const properties = Object.fromEntries(
        Object.entries(dto).filter(([, value]) => value !== undefined),
      );
      const { key } = await data.create('webhook', { entity_name: 'webhook', properties });
      // Made by this transaction's hooks: it is there.
      return { key, secret: (await this.repository.secret(data.tenant, key, data.transaction))! };
    });
  }

  async rotateSecret(identity: Identity, key: number): Promise<string> {
    const secret = newSecret();
    await this.transactions.run(async (tx) => {
      const owner = await this.repository.setSecret(tenantOf(identity), key, secret, tx);
      if (!owner) throw new NotFoundException(`No webhook ${key}`);
      // A secret changed is a right changed: who did it, never the secret.
      this.changeLog.record(tx, actorOf(identity), [
        { operation: 'secret_rotated', entity: 'webhook', recordKey: key, owner },
      ]);
    });
    return secret;
  }

  /** A `webhook.test` event, sent as any delivery (signed, logged, tried again). */
  async test(identity: Identity, key: number): Promise<number> {
    // Made only for a webhook of the caller's organization: send()'s insert is bound to it.
    const id = `test-${randomUUID()}`;
    const payload = {
      id,
      type: 'webhook.test',
      occurredAt: new Date().toISOString(),
      organization: identity.organizationKey,
      actor: { user: identity.userKey, name: identity.userName },
      webhook: key,
    };
    return this.send(identity, key, { eventId: id, eventType: 'webhook.test', payload });
  }

  /** The same body again: the one kept, or (kept by none) the event as the log holds it. */
  async replay(identity: Identity, key: number, deliveryKey: number): Promise<number> {
    const { eventId, eventType, payload } = await this.recorded(identity, key, deliveryKey);
    if (!payload && !(await this.payloads.fromLog(tenantOf(identity), eventId))) {
      throw new ConflictException(
        `Delivery ${deliveryKey} has no body to send again: its event's history was purged`,
      );
    }
    return this.send(identity, key, { eventId, eventType, payload, replayOf: deliveryKey });
  }

  async deliveries(
    identity: Identity,
    key: number,
    before: number | null,
    limit: number,
  ): Promise<DeliverySummary[]> {
    if (limit < 1 || limit > DELIVERIES_LIMIT) {
      throw new BadRequestException(
        `limit must be between 1 and ${DELIVERIES_LIMIT}, not ${limit}`,
      );
    }
    await this.assertExists(identity, key);
    const page = await this.repository.deliveries(tenantOf(identity), key, before, limit);
    return Promise.all(
      page.map(async (delivery) => ({
        ...delivery,
        // From the queue, for the few still to be tried.
        nextAttemptAt:
          delivery.state === 'pending' || delivery.state === 'retrying'
            ? await this.queue.nextRun(DELIVERY_QUEUE, delivery.jobId)
            : null,
      })),
    );
  }

  /** A delivery with its body (null once its event's history was purged). */
  async delivery(identity: Identity, key: number, deliveryKey: number): Promise<DeliveryRow> {
    const delivery = await this.recorded(identity, key, deliveryKey);
    const payload =
      delivery.payload ?? (await this.payloads.fromLog(tenantOf(identity), delivery.eventId));
    return { ...delivery, payload: payload ?? null };
  }

  private async recorded(
    identity: Identity,
    key: number,
    deliveryKey: number,
  ): Promise<DeliveryRow> {
    await this.assertExists(identity, key);
    const delivery = await this.repository.delivery(tenantOf(identity), key, deliveryKey);
    if (!delivery) throw new NotFoundException(`Webhook ${key} has no delivery ${deliveryKey}`);
    return delivery;
  }

  /** A delivery and its job, made by one transaction. */
  private send(
    identity: Identity,
    key: number,
    delivery: Omit<NewDelivery, 'idWebhook' | 'jobId' | 'replayOf'> & { replayOf?: number },
  ): Promise<number> {
    const jobId = randomUUID();
    const data: JobEnvelope<ReadyDelivery> = {
      organization: identity.organizationKey,
      actor: identity.userKey,
      payload: { webhook: key },
    };
    return this.transactions.run(async (tx: Transaction) => {
      const row = await this.repository.insert(
        tenantOf(identity),
        { ...delivery, idWebhook: key, jobId, replayOf: delivery.replayOf ?? null },
        tx,
      );
      if (!row) throw new NotFoundException(`No webhook ${key}`);
      await this.queue.insert(DELIVERY_QUEUE, [{ id: jobId, data }], tx);
      return row.key;
    });
  }

  /** 404 unless the caller's organization has the webhook (the routes require manage-webhooks). */
  private async assertExists(identity: Identity, key: number): Promise<void> {
    if (!(await this.repository.exists(tenantOf(identity), key))) {
      throw new NotFoundException(`No webhook ${key}`);
    }
  }
}
