import { BadRequestException } from '@nestjs/common';
import { EntityRegistry } from '../model/entity.registry';
import { EntityType } from '../model/entity-type';
import { EntityRecord } from '../model/entity-record';
import { AccessScope } from '../access/access.scope';
import { Transaction } from '../database/transaction';
import { EntityStore, LookupGuard } from './entity.store';

interface LookupUse {
  path: string;
  target: string;
  key: number;
}

/**
 * The lookups an input sets, each of which must name a row the caller may read (one of
 * another organization, or beyond the caller's depth, is as missing). Taken from the
 * input as the client sent it, before hooks run.
 */
export class Lookups {
  private readonly uses: LookupUse[];

  constructor(
    private readonly registry: EntityRegistry,
    type: EntityType,
    input: EntityRecord,
  ) {
    this.uses = collect(type, input, type.name);
  }

  /**
   * The rows a write must find readable in its own statement: those of the whole input,
   * children included, so the record's own INSERT guards its children's lookups too.
   * Undefined when the input sets no lookup.
   */
  guard(scope: AccessScope): LookupGuard | undefined {
    if (this.uses.length === 0) return undefined;
    return { scope, targets: this.targets() };
  }

  private targets(): LookupGuard['targets'] {
    return [...this.byTarget()].map(([target, uses]) => ({
      type: this.registry.find(target)!,
      keys: [...new Set(uses.map((use) => use.key))],
    }));
  }

  /**
   * One query per target entity type, whatever the number of rows: 400 naming the first
   * use whose row the caller may not read.
   */
  async check(store: EntityStore, tx: Transaction, scope: AccessScope): Promise<void> {
    for (const { type, keys } of this.targets()) {
      const existing = await store.readableKeys(tx, type, keys, scope);
      const missing = this.uses.find((use) => use.target === type.name && !existing.has(use.key));
      if (missing) {
        throw new BadRequestException(`${missing.path}: no ${type.name} with key ${missing.key}`);
      }
    }
  }

  private byTarget(): Map<string, LookupUse[]> {
    const byTarget = new Map<string, LookupUse[]>();
    for (const use of this.uses) {
      byTarget.set(use.target, [...(byTarget.get(use.target) ?? []), use]);
    }
    return byTarget;
  }
}

function collect(type: EntityType, record: EntityRecord, path: string): LookupUse[] {
  const uses: LookupUse[] = [];
  for (const [name, value] of Object.entries(record.properties)) {
    const lookup = type.properties.get(name)?.lookup;
    if (lookup && value !== null && value !== undefined) {
      uses.push({ path: `${path}.${name}`, target: lookup, key: Number(value) });
    }
  }
  for (const group of type.childGroups) {
    for (const [index, child] of (record.children[group.name] ?? []).entries()) {
      uses.push(...collect(group.child, child, `${group.name}[${index}]`));
    }
  }
  return uses;
}
