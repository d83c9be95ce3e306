import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Webhook as Signer } from 'standardwebhooks';
import { AccessScope } from '../access/access.scope';
import { AccessService } from '../access/access.service';
import { ChangeLog, SYSTEM_ACTOR } from '../changes/change-log.service';
import type { Environment } from '../config/environment';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { readableChanges } from '../entity/readable-changes';
import type { ChildChange, EntityEvent } from '../events/entity-event';
import { JobIdentities } from '../events/job-identities.service';
import { EntityRegistry } from '../model/entity.registry';
import type { JobEnvelope, QueuedJob } from '../queue/job-queue.service';
import type { DeliveryAttempt } from './entities/webhook-delivery.entity';
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
    config: ConfigService<Environment, true>,
  ) {
    this.timeoutMs = config.get('WEBHOOK_TIMEOUT_MS', { infer: true });
    this.disableAfter = config.get('WEBHOOK_DISABLE_AFTER', { infer: true });
    this.retries = config.get('WEBHOOK_RETRIES', { infer: true });
  }

  async run(job: QueuedJob<JobEnvelope<DeliveryJob>>): Promise<void> {
    const work = job.data.payload;
    const webhook = await this.repository.target(work.webhook);
    // Deleted: its deliveries went with it.
    if (!webhook) return;
    const fromEvent = 'event' in work;
    // An event's delivery is made at its first attempt's end; a test's or replay's, asked for.
    const made =
      fromEvent && job.retryCount === 0 ? undefined : await this.repository.byJob(job.id);
    if (made && made.state !== 'pending' && made.state !== 'retrying') return;
    // Turned off meanwhile: an event's delivery is dropped; a test or replay, asked for, goes.
    if (!webhook.active && fromEvent) {
      if (made) await this.repository.setState(made.key, 'cancelled');
      return;
    }
    let delivery: NewDelivery | undefined = made;
    if (!delivery && fromEvent) {
      const payload = await this.payloadFor(webhook, work);
      if (payload) {
        const { id: eventId, type: eventType } = work.event;
        delivery = {
          idWebhook: webhook.key,
          jobId: job.id,
          eventId,
          eventType,
          payload,
          replayOf: null,
        };
      }
    }
    if (!delivery) return;
    const attempt = await this.attempt(webhook, delivery);
    const delivered = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;
    const last = job.retryCount >= this.retries;
    const state = delivered ? 'delivered' : last ? 'failed' : 'retrying';
    if (delivered) {
      await this.repository.recordAttempt(delivery, attempt, state);
      return;
    }
    await this.transactions.run(async (tx) => {
      await this.repository.recordAttempt(delivery, attempt, state, tx);
      await this.countFailure(webhook, attempt, tx);
    });
    if (!last) throw new Error(`webhook ${webhook.key}: ${failureOf(attempt)}; tried again later`);
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
    if (!(await this.repository.failed(webhook.key, this.disableAfter, reason, tx))) return;
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
  ): Promise<DeliveredEvent | undefined> {
    if (Date.parse(event.occurredAt) < webhook.dateCreated.getTime()) return undefined;
    const reader = await this.identities.of(webhook.owner, DELIVERY_QUEUE);
    const type = this.registry.find(event.entity);
    if (!reader || !type || reader.organizationKey !== webhook.organization) return undefined;
    const scope = await this.access.scopeOf(reader);
    if (!scope.allows(type, 'read', owner)) return undefined;
    if (webhook.condition && event.operation !== 'deleted' && event.key !== null) {
      const met = await this.condition.matches(reader, event.entity, event.key, webhook.condition);
      if (!met) return undefined;
    }
    return this.readable(scope, event);
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
