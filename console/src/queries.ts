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

/** A (line, column) of the server's, both from 1, columns in code points: a text offset. */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const end = text.indexOf('\n', offset);
    if (end < 0) return text.length;
    offset = end + 1;
  }
  const rest = Array.from(text.slice(offset).split('\n', 1)[0]);
  return offset + rest.slice(0, Math.max(0, column - 1)).join('').length;
}

/** Rows as CSV (RFC 4180): the columns in order, every value quoted when it needs it. */
export function toCsv(columns: string[], rows: Record<string, unknown>[]): string {
  const cell = (value: unknown) => {
    const text =
      value === null || value === undefined
        ? ''
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [columns, ...rows.map((row) => columns.map((c) => row[c]))]
    .map((line) => line.map(cell).join(','))
    .join('\r\n');
}

/** The request as curl, for a terminal: the query as text/plain, an API key to fill in. */
export function curlOf(origin: string, query: string): string {
  return (
    `curl -s ${origin}/rest/fetch -H 'X-API-Key: $ATRIUM_KEY' -H 'Content-Type: text/plain' ` +
    `--data-binary ${shellQuote(query)}`
  );
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
