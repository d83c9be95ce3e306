import type { EntityTypeInfo, PropertyInfo } from './api';

/** Rows per page of a record list. */
export const PAGE_ROWS = 50;

/** The columns a list shows: the type's own properties, not its system columns. */
export function visibleColumns(type: EntityTypeInfo): PropertyInfo[] {
  return type.properties.filter((p) => p.name === 'key' || (!p.system && !p.writeOnly));
}

/** The FETCH text of a type's first page, newest first. */
export function listQuery(type: EntityTypeInfo): string {
  const names = visibleColumns(type).map((p) => p.name);
  return `FETCH ${type.name} (${names.join(', ')}) ORDER BY key DESC LIMIT ${PAGE_ROWS}`;
}
