import type { EntityTypeInfo, PropertyInfo } from '../api/entities';
import { fetchString } from '../fetch/fetch-text';
import type { RecordState, TypeIndex, Values } from './record-values';

/** Rows per page of a record list; choices per lookup search. */
export const PAGE_ROWS = 50;
export const LOOKUP_CHOICES = 10;

export interface ListOptions {
  /** The column to order by, and its direction; newest first when unset. */
  sort?: { column: string; ascending: boolean };
  /** Text that one of the type's text columns, or a lookup's name, contains. */
  filter?: string;
}

/** The columns a list shows: the key and the type's own readable properties. */
export function visibleColumns(type: EntityTypeInfo): PropertyInfo[] {
  return type.properties.filter((p) => p.name === 'key' || (!p.system && !p.writeOnly));
}

const isText = (p: PropertyInfo) => p.type === 'string' && !p.enum;

/** The property that names a record of a type to people: its name, else its first text. */
export function displayProperty(type: EntityTypeInfo): string {
  const own = type.properties.filter((p) => !p.system && !p.writeOnly && isText(p));
  const named = own.find((p) => ['name', 'full_name'].includes(p.name));
  return (named ?? own.find((p) => p.required) ?? own[0])?.name ?? 'key';
}

/** A lookup column of a list and what names its records, when the caller may read them. */
function lookupNames(type: EntityTypeInfo, types: TypeIndex) {
  return visibleColumns(type).flatMap((column) => {
    const target = column.lookup && types.get(column.lookup.entity);
    return target
      ? [{ column: column.name, target: target.name, name: displayProperty(target) }]
      : [];
  });
}

/** Where a list row holds the name of the record each lookup column points at. */
export function lookupNameKeys(type: EntityTypeInfo, types: TypeIndex): Map<string, string> {
  return new Map(
    lookupNames(type, types)
      .filter((link) => link.name !== 'key')
      .map((link) => [link.column, `${link.column}.${link.name}`]),
  );
}

/**
 * The FETCH text of a type's list: its columns and, through an outer link per lookup
 * (aliased as the lookup column), the name of each record pointed at; filtered on text
 * columns and those names; ordered as asked.
 */
export function listQuery(
  type: EntityTypeInfo,
  types: TypeIndex,
  options: ListOptions = {},
): string {
  const columns = visibleColumns(type);
  const links = lookupNames(type, types).filter((l) => l.name !== 'key');
  let query = `FETCH ${type.name} (${columns.map((p) => p.name).join(', ')})`;
  for (const link of links) {
    query += ` { ${link.target} AS ${link.column} OUTER TO ${link.column} (${link.name}) }`;
  }
  const filter = options.filter?.trim();
  const searchable = [
    ...columns.filter(isText).map((p) => p.name),
    ...links.map((link) => `${link.column}.${link.name}`),
  ];
  if (filter && searchable.length > 0) {
    const literal = fetchString(filter);
    query += ` WHERE ${searchable.map((name) => `${name} CONTAINS ${literal}`).join(' OR ')}`;
  }
  const { sort } = options;
  query += sort
    ? ` ORDER BY ${sort.column} ${sort.ascending ? 'ASC' : 'DESC'}`
    : ' ORDER BY key DESC';
  return `${query} LIMIT ${PAGE_ROWS}`;
}

/** A lookup picker's choices: the target's records whose name contains the text. */
export function lookupSearchQuery(target: EntityTypeInfo, input: string): string {
  const name = displayProperty(target);
  const text = input.trim();
  const condition =
    name !== 'key'
      ? text && `${name} CONTAINS ${fetchString(text)}`
      : /^\d+$/.test(text) && `key = ${text}`;
  return (
    `FETCH ${target.name} (key, ${name} AS label)${condition ? ` WHERE ${condition}` : ''}` +
    ` ORDER BY ${name} ASC LIMIT ${LOOKUP_CHOICES}`
  );
}

/** The names of the target's records with these keys (a form's lookups, one query a type). */
export function lookupLabelsQuery(target: EntityTypeInfo, keys: number[]): string {
  return `FETCH ${target.name} (key, ${displayProperty(target)} AS label) WHERE key IN (${keys.join(', ')})`;
}

/** The keys a record's lookups (its own and its rows') point at, by target type. */
export function lookupKeysOf(
  type: EntityTypeInfo,
  types: TypeIndex,
  state: RecordState,
): Map<string, number[]> {
  const keys = new Map<string, Set<number>>();
  const collect = (of: EntityTypeInfo, values: Values) => {
    for (const property of of.properties) {
      const key = values[property.name];
      if (property.lookup && typeof key === 'number') {
        const target = property.lookup.entity;
        if (!keys.has(target)) keys.set(target, new Set());
        keys.get(target)!.add(key);
      }
    }
  };
  collect(type, state.values);
  for (const group of type.childGroups ?? []) {
    const child = types.get(group.entity);
    for (const row of state.children[group.name] ?? []) if (child) collect(child, row.values);
  }
  return new Map([...keys].filter(([target]) => types.has(target)).map(([t, k]) => [t, [...k]]));
}
