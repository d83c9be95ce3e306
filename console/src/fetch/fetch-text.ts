/** A FETCH string literal: quotes doubled, as FETCH.md's grammar escapes them. */
export function fetchString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
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

/** A value as one line of text: objects as JSON, nothing for null. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Rows as CSV (RFC 4180): the columns in order, every value quoted when it needs it. */
export function toCsv(columns: string[], rows: Record<string, unknown>[]): string {
  const cell = (value: unknown) => {
    const text = cellText(value);
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
