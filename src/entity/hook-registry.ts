import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { AccessScope } from '../access/access.scope';
import { EntityRegistry } from '../model/entity.registry';
import type { EntityRecord } from '../model/entity-record';
import type { HookEvent } from './entity.errors';
import type { JoinedTransaction } from './joined-transaction';

/** What a hook is called with, besides the event: the records, the caller and the write. */
export interface HookCall {
  /** The entity as it will be written (hooks may set computed properties on it). */
  entity: EntityRecord;
  /** The entity as stored, on update and delete. */
  stored?: EntityRecord;
  scope: AccessScope;
  joined: JoinedTransaction;
}

export type HookHandlers = Partial<Record<HookEvent, (call: HookCall) => unknown>>;

/**
 * The hooks of each entity type, at most one set per type, registered at boot: the data
 * layer registers those of the `@EntityHooks` providers, handing them its scoped data API.
 */
@Injectable()
export class HookRegistry implements OnApplicationBootstrap {
  private readonly hooks = new Map<string, HookHandlers>();

  constructor(private readonly registry: EntityRegistry) {}

  register(entityName: string, handlers: HookHandlers): void {
    if (this.hooks.has(entityName)) {
      throw new Error(`Two @EntityHooks providers for entity type ${entityName}`);
    }
    this.hooks.set(entityName, handlers);
  }

  /** After every module's init, when the entity registry is complete: a typo fails the boot. */
  onApplicationBootstrap(): void {
    for (const entityName of this.hooks.keys()) {
      if (!this.registry.find(entityName)) {
        throw new Error(`@EntityHooks('${entityName}'): no entity type has that name`);
      }
    }
  }

  find(entityName: string): HookHandlers | undefined {
    return this.hooks.get(entityName);
  }
}
