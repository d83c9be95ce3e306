import { BadRequestException } from '@nestjs/common';
import { nearestName } from '../common/nearest-name';
import { EntityType } from '../model/entity-type';
import { EntityRecord } from '../model/entity-record';
import { coerceValue } from '../model/property-value';

/** A child is created when it has no key, updated when it has one. */
type Mode = 'create' | 'update' | 'child';

/**
 * Reads a request envelope (spec 2.2) against the registry: unknown properties or child
 * groups, wrong types and missing required properties are 400s naming the property.
 * System columns and computed properties are ignored (the engine and the hooks set
 * them); `key` is dropped on create and kept on update, to match the path and the stored
 * children.
 */
export function parseEnvelope(
  type: EntityType,
  body: unknown,
  mode: Mode,
  path = type.name,
): EntityRecord {
  if (!isObject(body)) throw invalid(path, 'expected an object with "properties"');
  const stray = Object.keys(body).find((key) => !ENVELOPE_KEYS.includes(key));
  if (stray !== undefined) throw invalid(path, strayKeyProblem(type, stray));
  if (body.entity_name !== undefined && body.entity_name !== type.name) {
    throw invalid(path, `entity_name is "${textOf(body.entity_name)}", expected "${type.name}"`);
  }
  const rawProperties = body.properties ?? {};
  if (!isObject(rawProperties)) throw invalid(`${path}.properties`, 'expected an object');
  const rawChildren = body.children ?? {};
  if (!isObject(rawChildren)) throw invalid(`${path}.children`, 'expected an object');

  const properties: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(rawProperties)) {
    if (type.writeOnly.includes(name)) {
      if (typeof value !== 'string') throw invalid(`${path}.${name}`, 'expected a string');
      properties[name] = value;
      continue;
    }
    const property = type.properties.get(name);
    if (!property || property.hidden) {
      throw invalid(
        `${path}.${name}`,
        `${type.name} has no property "${name}"${suggest(type, name)}`,
      );
    }
    if (name === 'key') {
      if (mode === 'create') continue; // keys are drawn by the database
      const coerced = coerceValue(property, value);
      if ('problem' in coerced) throw invalid(`${path}.key`, coerced.problem);
      properties.key = coerced.value;
      continue;
    }
    if (property.origin !== 'client') continue;
    const coerced = coerceValue(property, value);
    if ('problem' in coerced) throw invalid(`${path}.${name}`, coerced.problem);
    properties[name] = coerced.value;
  }

  const creating = mode === 'create' || (mode === 'child' && properties.key === undefined);
  if (creating) {
    for (const property of type.properties.values()) {
      if (property.required && !(property.name in properties)) {
        throw invalid(`${path}.${property.name}`, 'is required');
      }
    }
  }

  const children: Record<string, EntityRecord[]> = {};
  for (const [groupName, list] of Object.entries(rawChildren)) {
    const group = type.childGroups.find((g) => g.name === groupName);
    if (!group) {
      const known = type.childGroups.map((g) => g.name).join(', ') || 'none';
      throw invalid(
        `${path}.children.${groupName}`,
        `unknown child group (${type.name} has: ${known})`,
      );
    }
    if (!Array.isArray(list)) throw invalid(`${path}.children.${groupName}`, 'expected an array');
    children[groupName] = list.map((child, index) =>
      parseEnvelope(
        group.child,
        child,
        mode === 'create' ? 'create' : 'child',
        `${groupName}[${index}]`,
      ),
    );
  }
  return { entity_name: type.name, properties, children };
}

/** What a record's envelope holds: anything else is a mistake, most often a property. */
const ENVELOPE_KEYS = ['entity_name', 'properties', 'children'];

function strayKeyProblem(type: EntityType, key: string): string {
  const property = type.properties.get(key);
  if (property && !property.hidden) {
    return `unknown key "${key}": ${key} is a property of ${type.name}, sent inside "properties": {"properties": {"${key}": …}}`;
  }
  return `unknown key "${key}": a record has "properties" and "children" (and "entity_name")`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(path: string, problem: string): BadRequestException {
  return new BadRequestException(`${path}: ${problem}`);
}

/** "; did you mean `x`?" for a near miss (at most 2 edits away), else nothing. */
export function suggest(type: EntityType, name: string): string {
  const candidates = [...type.properties.values()].filter((p) => !p.hidden).map((p) => p.name);
  const best = nearestName(name, candidates);
  return best ? `; did you mean "${best}"?` : '';
}

/** A value of a request as it reads in an error's detail: text as it is, the rest as JSON. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}
