import { BadRequestException } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EntityRegistry } from './entity.registry';
import { EntityType } from './entity-type';
import { EntityRecord } from './entity-record';
import { AccessScope } from '../access/access.scope';
import { EntityStore } from './entity.store';

interface LookupUse {
  path: string;
  target: string;
  key: number;
}

/**
 * Every lookup the input sets must name a row the caller may read (one of another
 * organization, or beyond the caller's depth, is as missing): one query per target entity
 * type, whatever the number of rows (400 naming the first that does not).
 */
export async function checkLookups(
  store: EntityStore,
  registry: EntityRegistry,
  manager: EntityManager,
  type: EntityType,
  input: EntityRecord,
  scope: AccessScope,
): Promise<void> {
  const uses = collect(type, input, type.name);
  const byTarget = new Map<string, LookupUse[]>();
  for (const use of uses) byTarget.set(use.target, [...(byTarget.get(use.target) ?? []), use]);
  for (const [target, targetUses] of byTarget) {
    const targetType = registry.find(target)!;
    const existing = await store.readableKeys(
      manager,
      targetType,
      [...new Set(targetUses.map((u) => u.key))],
      scope,
    );
    const missing = targetUses.find((use) => !existing.has(use.key));
    if (missing)
      throw new BadRequestException(`${missing.path}: no ${target} with key ${missing.key}`);
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
