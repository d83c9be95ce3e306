/**
 * JSON text that PostgreSQL's `jsonb` accepts, for any value. JSON.stringify writes a lone
 * UTF-16 surrogate as `\udXXX` and U+0000 as `\u0000`, and `jsonb` refuses both (no text
 * holds them), failing the whole statement: a change-log entry naming what a client tried,
 * a receiver's answer in a webhook attempt. Each becomes U+FFFD, as a lone surrogate in a
 * `text` parameter does on its way to UTF-8. The edge refuses such text from clients
 * (unstorable-text.ts); this keeps what the server itself writes from ever failing on it.
 */
export function pgJson(value: unknown): string {
  return storable(JSON.stringify(value));
}

/**
 * A value for a library that writes it to `jsonb` itself (pg-boss's job data): the value
 * when its JSON is storable, else a copy of it that is (as pgJson would write it).
 */
export function pgJsonSafe<T>(value: T): T {
  const text = JSON.stringify(value);
  const safe = storable(text);
  return safe === text ? value : (JSON.parse(safe) as T);
}

function storable(text: string): string {
  // Most texts hold neither escape: two scans, and no copy.
  if (!text.includes('\\u0000') && !text.includes('\\ud')) return text;
  return text.replace(ESCAPE, (escape) => (escape === '\\\\' ? escape : '\\ufffd'));
}

/** An escaped backslash (kept, so that `\\u0000` stays the six characters it was), or
 * one of the escapes `jsonb` refuses: JSON.stringify writes a lone surrogate, and only a
 * lone one, as `\udXXX` in lower case. */
const ESCAPE = /\\\\|\\u0000|\\ud[89a-f][0-9a-f]{2}/g;
