import { didYouMean } from '../common/nearest-name';
import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AccessScope } from '../access/access.scope';
import { EntityRecord } from '../model/entity-record';
import { EntityType } from '../model/entity-type';
import { textOf } from './entity.input';

/**
 * The entity as it will be after the update: stored properties under the incoming ones;
 * a child group the request carries replaces the stored one, keyed children merged with
 * their stored selves.
 */
export function mergeInto(stored: EntityRecord, input: EntityRecord, path: string): EntityRecord {
  // A copy: hooks may change what they are given, and `stored` must stay as it was read.
  const children = structuredClone(stored.children);
  for (const [group, list] of Object.entries(input.children)) {
    const storedByKey = new Map((stored.children[group] ?? []).map((c) => [c.properties.key, c]));
    children[group] = list.map((child, index) => {
      if (child.properties.key === undefined) return child;
      const previous = storedByKey.get(child.properties.key);
      if (!previous) {
        throw new BadRequestException(
          `${group}[${index}].key: ${textOf(child.properties.key)} is not a child of this ${path}`,
        );
      }
      return mergeInto(previous, child, child.entity_name);
    });
  }
  return {
    entity_name: stored.entity_name,
    properties: { ...stored.properties, ...input.properties },
    children,
  };
}

export function etagOf(entity: EntityRecord): string {
  return `"${createHash('sha256').update(JSON.stringify(entity)).digest('base64url').slice(0, 27)}"`;
}

/** The record without the secured properties the caller may not read, children included. */
export function visibleTo(
  scope: AccessScope,
  type: EntityType,
  record: EntityRecord,
): EntityRecord {
  if (!type.securedInTree) return record;
  const properties = Object.fromEntries(
    Object.entries(record.properties).filter(([name]) => {
      const property = type.properties.get(name);
      return !property || scope.canRead(type, property);
    }),
  );
  const children = Object.fromEntries(
    type.childGroups.map((group) => [
      group.name,
      (record.children[group.name] ?? []).map((c) => visibleTo(scope, group.child, c)),
    ]),
  );
  return { ...record, properties, children };
}

/** 403 naming the first secured property the input sets that the caller may not update. */
export function assertUpdatable(
  scope: AccessScope,
  type: EntityType,
  record: EntityRecord,
  path: string,
): void {
  for (const name of Object.keys(record.properties)) {
    const property = type.properties.get(name);
    if (property && !scope.canUpdate(type, property)) {
      throw new ForbiddenException(`${path}.${name}: you may not update this secured property`);
    }
  }
  for (const group of type.childGroups) {
    for (const [index, child] of (record.children[group.name] ?? []).entries()) {
      assertUpdatable(scope, group.child, child, `${group.name}[${index}]`);
    }
  }
}

/** The keys of a record and of its children at every level, by type. */
export function keysByType(type: EntityType, record: EntityRecord): Map<EntityType, number[]> {
  const keys = new Map<EntityType, number[]>([[type, [record.properties.key as number]]]);
  for (const group of type.childGroups) {
    for (const child of record.children[group.name] ?? []) {
      for (const [childType, childKeys] of keysByType(group.child, child)) {
        keys.set(childType, [...(keys.get(childType) ?? []), ...childKeys]);
      }
    }
  }
  return keys;
}

export function notFound(type: EntityType, key: number): NotFoundException {
  return new NotFoundException(`${type.name} ${key} not found`);
}

/** 404 for a type name no entity type has, with the nearest one when it is a near miss. */
export function unknownType(name: string, known: readonly EntityType[]): NotFoundException {
  const hint = didYouMean(
    name,
    known.map((type) => type.name),
  );
  return new NotFoundException(`Unknown entity type "${name}"${hint}`);
}
