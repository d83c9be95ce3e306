import { Injectable } from '@nestjs/common';
import type { Tenant } from '../access/access.tenant';
import { AccessScope } from '../access/access.scope';
import { AccessService } from '../access/access.service';
import type { Identity } from '../common/identity';
import { ChangeFeedRepository } from '../changes/change-feed.repository';
import { readableChanges } from '../entity/readable-changes';
import { byParent, eventOf, type ChildChange, type EntityEvent } from '../events/entity-event';
import { JobIdentities } from '../events/job-identities.service';
import { EntityRegistry } from '../model/entity.registry';
import type { Owner } from '../model/owner';
import { WebhookCondition } from './webhook-condition';
import { DELIVERY_QUEUE, WebhookTarget } from './webhook.repository';

/** The event as a webhook's owner may read it, and whether something was left out. */
export type DeliveredEvent = EntityEvent & { withheld?: true };

/** A webhook's owner as its deliveries read: as the owner is now. */
interface Reader {
  identity: Identity;
  scope: AccessScope;
}

/** An event of a record, with the record's owner at the time of the change. */
export interface OwnedEvent {
  event: EntityEvent;
  owner: Owner;
}

/**
 * A delivery's body. An event's is decided at its first attempt: the webhook's owner must
 * read the record (at the time of the change) and the record meet the condition; the body
 * holds what the owner may read. The delivery keeps it only where it is not the event as
 * the change log holds it, which is read again for a retry or a replay.
 */
@Injectable()
export class WebhookPayloads {
  constructor(
    private readonly condition: WebhookCondition,
    private readonly identities: JobIdentities,
    private readonly access: AccessService,
    private readonly registry: EntityRegistry,
    private readonly feed: ChangeFeedRepository,
  ) {}

  /** What a delivery keeps of a body: nothing when it is the event as the log holds it. */
  stored(body: DeliveredEvent): DeliveredEvent | null {
    return body.withheld ? body : null;
  }

  /**
   * The event `eventId` as the change log holds it (a body a delivery did not keep), of the
   * tenant's organization; undefined once its history was purged.
   */
  async fromLog(tenant: Tenant, eventId: string): Promise<EntityEvent | undefined> {
    const key = Number(eventId);
    if (!Number.isSafeInteger(key)) return undefined;
    const entries = await this.feed.recordWrite(tenant, key);
    const record = entries.find((entry) => entry.key === key);
    return record && eventOf(record, byParent(entries.filter((entry) => entry !== record)));
  }

  /**
   * A decider for a batch of events: each owner's user and access read once for all. Its
   * promise rejects when the condition cannot be run (it no longer compiles).
   */
  decider(): (webhook: WebhookTarget, owned: OwnedEvent) => Promise<DeliveredEvent | undefined> {
    const readers = new Map<number, Promise<Reader | undefined>>();
    return async (webhook, owned) => {
      if (!readers.has(webhook.owner)) readers.set(webhook.owner, this.readerOf(webhook));
      return this.payloadFor(webhook, owned, await readers.get(webhook.owner)!);
    };
  }

  /** Whom a webhook's owner reads as, now; undefined when the owner is gone or inactive. */
  private async readerOf(webhook: WebhookTarget): Promise<Reader | undefined> {
    const identity = await this.identities.of(webhook.organization, webhook.owner, DELIVERY_QUEUE);
    return identity && { identity, scope: await this.access.scopeOf(identity) };
  }

  /**
   * The body of an event's delivery, or undefined when it is not the webhook's to get: the
   * change came before the webhook, its owner cannot read the record (or is gone), or the
   * record does not meet the condition (a deleted one has none to meet).
   */
  private async payloadFor(
    webhook: WebhookTarget,
    { event, owner }: OwnedEvent,
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
