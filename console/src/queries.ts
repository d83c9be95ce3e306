import type { EntityTypeInfo, PropertyInfo } from './api';

/** Rows per page of a record list. */
export const PAGE_ROWS = 50;

export interface ListOptions {
  /** The column to order by, and its direction; newest first when unset. */
  sort?: { column: string; ascending: boolean };
  /** Text that one of the type's text columns contains. */
  filter?: string;
}

/** The columns a list shows: the key and the type's own properties, not system columns. */
export function visibleColumns(type: EntityTypeInfo): PropertyInfo[] {
  return type.properties.filter((p) => p.name === 'key' || (!p.system && !p.writeOnly));
}

/** A FETCH string literal: quotes doubled, as FETCH.md's grammar escapes them. */
export function fetchString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The FETCH text of a type's list: its columns, filtered and ordered as asked. */
export function listQuery(type: EntityTypeInfo, options: ListOptions = {}): string {
  const columns = visibleColumns(type);
  let query = `FETCH ${type.name} (${columns.map((p) => p.name).join(', ')})`;
  const filter = options.filter?.trim();
  const searchable = columns.filter((p) => p.type === 'string' && !p.enum);
  if (filter && searchable.length > 0) {
    const literal = fetchString(filter);
    query += ` WHERE ${searchable.map((p) => `${p.name} CONTAINS ${literal}`).join(' OR ')}`;
  }
  const { sort } = options;
  query += sort
    ? ` ORDER BY ${sort.column} ${sort.ascending ? 'ASC' : 'DESC'}`
    : ' ORDER BY key DESC';
  return `${query} LIMIT ${PAGE_ROWS}`;
}
