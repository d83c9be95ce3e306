import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Identity } from '../common/identity';
import type { ScopedData } from '../data/scoped-data';
import { ENTITY_HOOKS } from './entity.decorators';
import { EntityRegistry } from './entity.registry';
import type { HookEvent } from './entity.errors';
import type { EntityRecord } from './entity-record';

export interface HookContext {
  /**
   * The entity as it will be written: on update, the stored properties with the incoming
   * ones over them, and the incoming child groups in place of the stored ones. Hooks may
   * set computed properties on it.
   */
  entity: EntityRecord;
  /** The entity as stored, on update and delete. */
  stored?: EntityRecord;
  identity: Identity;
  /**
   * The workflow method (`invoicing.issue`) making this write; undefined for a write
   * through `/rest/entity`. A rule can keep a change for the workflow that owns it.
   */
  workflow?: string;
  /**
   * Reads and writes inside the write's transaction, as the caller: its organization,
   * privileges and secured properties apply.
   */
  data: ScopedData;
}

export type EntityHookSet = Partial<Record<HookEvent, (context: HookContext) => unknown>>;

/** The `@EntityHooks` providers, found at boot; at most one per entity type. */
@Injectable()
export class EntityHooksRegistry implements OnModuleInit, OnApplicationBootstrap {
  private readonly hooks = new Map<string, EntityHookSet>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly registry: EntityRegistry,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const { metatype } = wrapper;
      const instance: unknown = wrapper.instance;
      if (!metatype || !instance) continue;
      const entityName = Reflect.getMetadata(ENTITY_HOOKS, metatype) as string | undefined;
      if (!entityName) continue;
      if (this.hooks.has(entityName)) {
        throw new Error(`Two @EntityHooks providers for entity type ${entityName}`);
      }
      this.hooks.set(entityName, instance);
    }
  }

  /** After every module's init, when the entity registry is complete: a typo fails the boot. */
  onApplicationBootstrap(): void {
    for (const entityName of this.hooks.keys()) {
      if (!this.registry.find(entityName)) {
        throw new Error(`@EntityHooks('${entityName}'): no entity type has that name`);
      }
    }
  }

  find(entityName: string): EntityHookSet | undefined {
    return this.hooks.get(entityName);
  }
}
