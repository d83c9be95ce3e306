import { BadRequestException } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { EntityHooks, HookContext } from '../data/entity-hooks';
import { EVENT_OPERATIONS, unknownOperations, whyNoEvents } from '../events/entity-event';
import { EntityRegistry } from '../model/entity.registry';
import { WebhookAddresses, WebhookTargetError } from './webhook-addresses';
import { WebhookCondition } from './webhook-condition';

/** A new signing secret, as Standard Webhooks writes one: `whsec_` and 24 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * A webhook's rules: its URL one it may be sent to, its events ones the log tells of, its
 * condition one that compiles on each of their entity types. What is wrong is the client's
 * input, so a 400 naming the property, not a rule's 424. A new webhook gets its secret here;
 * one turned on again starts with a clean count of failures.
 */
@EntityHooks('webhook')
export class WebhookHooks {
  constructor(
    private readonly addresses: WebhookAddresses,
    private readonly condition: WebhookCondition,
    private readonly registry: EntityRegistry,
  ) {}

  async onBeforeInsert(context: HookContext): Promise<void> {
    await this.check(context);
    context.entity.properties.secret = newSecret();
  }

  async onBeforeUpdate(context: HookContext): Promise<void> {
    await this.check(context);
    const { properties } = context.entity;
    if (properties.active === true && context.stored!.properties.active === false) {
      properties.disabled_reason = null;
      properties.failures_in_row = 0;
    }
  }

  private async check({ entity, stored, identity }: HookContext): Promise<void> {
    const properties = entity.properties as Record<string, string | null>;
    const changed = (name: string) => !stored || properties[name] !== stored.properties[name];
    if (changed('url')) await this.checkUrl(properties.url!);
    if (changed('events')) properties.events = this.canonicalEvents(properties.events!);
    if ((changed('events') || changed('condition')) && properties.condition) {
      for (const name of entityTypesOf(properties.events!)) {
        await this.condition.check(identity, name, properties.condition);
      }
    }
  }

  private async checkUrl(text: string): Promise<void> {
    try {
      await this.addresses.target(this.addresses.parse(text));
    } catch (error) {
      if (error instanceof WebhookTargetError) {
        throw new BadRequestException(`webhook.url: ${error.message}`);
      }
      throw error;
    }
  }

  /** `invoice.created, invoice.updated`: each event checked, sorted, once. */
  private canonicalEvents(text: string): string {
    const events = [...new Set(text.split(/[\s,]+/).filter(Boolean))].sort();
    if (events.length === 0) {
      throw new BadRequestException('webhook.events: name at least one event, invoice.created');
    }
    for (const event of events) {
      const [name, operation] = event.split('.');
      const problem = whyNoEvents(this.registry, name);
      if (problem) throw new BadRequestException(`webhook.events: "${event}": ${problem}`);
      if (unknownOperations([operation]).length > 0) {
        throw new BadRequestException(
          `webhook.events: "${event}": the operation is one of ${EVENT_OPERATIONS.join(', ')}`,
        );
      }
    }
    return events.join(', ');
  }
}

/** The entity types a canonical events text names. */
export function entityTypesOf(events: string): string[] {
  return [...new Set(events.split(', ').map((event) => event.split('.')[0]))];
}
