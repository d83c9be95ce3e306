/**
 * Text PostgreSQL cannot store as it was sent: U+0000 (no `text` value holds it) and a
 * lone UTF-16 surrogate (a JSON `\ud800` escape: not a Unicode character, so it has no
 * UTF-8 form; a `text` parameter would silently become U+FFFD and `jsonb` refuses it).
 * Both are refused where they arrive, naming the field, rather than stored changed or
 * failing the statement as a 500.
 */
export function unstorableProblem(text: string): string | undefined {
  if (text.includes('\0')) return 'a NUL character (U+0000), which text cannot hold';
  const lone = LONE_SURROGATE.exec(text);
  if (!lone) return undefined;
  const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
  return `an unpaired surrogate (U+${code}), which is not a Unicode character`;
}

/** A high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The field's detail: `properties.name contains a NUL character (U+0000), …`. */
export function unstorableDetail(field: string, problem: string): string {
  return `${field} contains ${problem}`;
}

/** The first of a value's strings or member names that PostgreSQL cannot store. */
export function findUnstorableText(
  value: unknown,
  path: string,
): { field: string; problem: string } | undefined {
  if (typeof value === 'string') {
    const problem = unstorableProblem(value);
    return problem === undefined ? undefined : { field: path, problem };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorableText(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [name, item] of Object.entries(value)) {
    const problem = unstorableProblem(name);
    // A name is not echoed: it could be anything, and the client knows which it sent.
    if (problem !== undefined) return { field: `A field name in ${path || 'the body'}`, problem };
    const found = findUnstorableText(item, path ? `${path}.${name}` : name);
    if (found) return found;
  }
  return undefined;
}
