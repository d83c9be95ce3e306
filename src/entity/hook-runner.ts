import { Injectable } from '@nestjs/common';
import type { AccessScope } from '../access/access.scope';
import { EntityType } from '../model/entity-type';
import { EntityRecord } from '../model/entity-record';
import { BusinessRuleError, HookEvent } from './entity.errors';
import { HookRegistry } from './hook-registry';
import type { JoinedTransaction } from './joined-transaction';

/** Who writes, and in which transaction: the same for a record and all its children. */
export interface HookRun {
  scope: AccessScope;
  joined: JoinedTransaction;
}

/**
 * Runs the hooks of an entity and its children, children first (so a parent's rule can
 * use what its children's rules computed). A child's failure is reported on the parent
 * with the child group, type, property and index filled in. On update, only the child
 * groups the request carries (`carried`) are visited: the others are not written.
 */
@Injectable()
export class HookRunner {
  constructor(private readonly hooks: HookRegistry) {}

  async run(
    event: HookEvent,
    type: EntityType,
    entity: EntityRecord,
    stored: EntityRecord | undefined,
    run: HookRun,
    carried: EntityRecord = entity,
  ): Promise<void> {
    for (const group of type.childGroups) {
      if (event === 'onBeforeUpdate' && !(group.name in carried.children)) continue;
      const incoming = entity.children[group.name] ?? [];
      const storedChildren = stored?.children[group.name] ?? [];
      const storedByKey = new Map(storedChildren.map((c) => [c.properties.key, c]));
      for (const [index, child] of incoming.entries()) {
        const previous = storedByKey.get(child.properties.key);
        const childEvent: HookEvent =
          event === 'onBeforeDelete' ? event : previous ? 'onBeforeUpdate' : 'onBeforeInsert';
        const carriedChild = carried.children[group.name]?.[index] ?? child;
        await this.runChild(group.name, group.child, index, () =>
          this.run(childEvent, group.child, child, previous, run, carriedChild),
        );
      }
      if (event !== 'onBeforeUpdate') continue;
      const kept = new Set(incoming.map((c) => c.properties.key));
      for (const [index, gone] of storedChildren.entries()) {
        if (kept.has(gone.properties.key)) continue;
        await this.runChild(group.name, group.child, index, () =>
          this.run('onBeforeDelete', group.child, gone, gone, run),
        );
      }
    }
    await this.hooks.find(type.name)?.[event]?.({ entity, stored, ...run });
  }

  private async runChild(
    groupName: string,
    child: EntityType,
    index: number,
    work: () => Promise<void>,
  ): Promise<void> {
    try {
      await work();
    } catch (error) {
      // A grandchild's failure already names the deepest child; keep it.
      if (!(error instanceof BusinessRuleError) || error.violation.childEntityName) throw error;
      throw new BusinessRuleError(error.detail, {
        propertyName: groupName,
        childEntityName: child.name,
        childPropertyName: error.violation.propertyName,
        childEntityIndex: index,
      });
    }
  }
}
