import { ProviderDiscovery } from '../common/provider-discovery';
import { Injectable, OnModuleInit, SetMetadata } from '@nestjs/common';
import type { Identity } from '../common/identity';
import { RequestMemo } from '../http/request-memo';
import { HOOK_EVENTS } from '../entity/entity.errors';
import { HookCall, HookHandlers, HookRegistry } from '../entity/hook-registry';
import type { EntityRecord } from '../model/entity-record';
import { DataService } from './data.service';
import type { ScopedData } from './scoped-data';

const ENTITY_HOOKS = 'atrium:entity-hooks';

/** A Nest provider holding the business rules of one entity type, found at boot. */
export function EntityHooks(entityName: string): ClassDecorator {
  return (target) => {
    SetMetadata(ENTITY_HOOKS, entityName)(target);
    Injectable()(target);
  };
}

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

type HookMethod = (context: HookContext) => unknown;

/** The ScopedData of a write, one for all its hooks: kept on the write's JoinedTransaction. */
const WRITE_DATA = new RequestMemo<ScopedData>('scoped data of a write');

/**
 * Finds the `@EntityHooks` providers at boot and registers their methods with the
 * entity engine, each called with the scoped data API of the write's transaction.
 */
@Injectable()
export class EntityHooksExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: ProviderDiscovery,
    private readonly hooks: HookRegistry,
    private readonly data: DataService,
  ) {}

  onModuleInit(): void {
    for (const { instance, metadata } of this.discovery.classesWith<string>(ENTITY_HOOKS)) {
      this.hooks.register(metadata, this.handlersOf(instance));
    }
  }

  private handlersOf(instance: Record<string, unknown>): HookHandlers {
    const handlers: HookHandlers = {};
    for (const event of HOOK_EVENTS) {
      const method = instance[event] as HookMethod | undefined;
      if (typeof method !== 'function') continue;
      handlers[event] = ({ entity, stored, scope, joined }: HookCall) =>
        method.call(instance, {
          entity,
          stored,
          identity: scope.identity,
          workflow: joined.workflow,
          data: WRITE_DATA.get(joined) ?? WRITE_DATA.set(joined, this.data.within(scope, joined)),
        });
    }
    return handlers;
  }
}
