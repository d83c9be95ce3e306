import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import secureJson from 'secure-json-parse';

/**
 * How deeply a JSON body may nest, on every route. The deepest body the app reads is a
 * FETCH tree in JSON at the largest limits its settings allow (32 links deep, filters 32
 * groups deep: about 140 levels); an entity's child groups take three levels per
 * generation. 256 leaves room for both, and keeps the readers that recurse (validation,
 * the entity tree, FETCH's JSON form) far from the end of the stack.
 */
export const JSON_MAX_DEPTH = 256;

export const EMPTY_JSON = 'The body is empty, but its Content-Type is JSON';

const FORBIDDEN_MEMBER =
  'The body has a "__proto__" member, or a "constructor" member holding "prototype", ' +
  'which this server refuses';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * The one reader of JSON bodies on both platforms: malformed, empty, too deep or
 * prototype-poisoning text is a 400 that quotes nothing of it; a charset other than
 * UTF-8 (RFC 8259's one) a 415, where Express would decode it and Fastify mangle it.
 * Poisoning is refused by secure-json-parse, the check Fastify's own parser makes; its
 * scan runs only when the text holds one of those names.
 */
export function parseJsonBody(text: string, contentType = ''): unknown {
  const charset = CHARSET.exec(contentType)?.[1].toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new UnsupportedMediaTypeException('A JSON body must be UTF-8');
  }
  if (text.length === 0) throw new BadRequestException(EMPTY_JSON);
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw new BadRequestException(refusalOf(error));
  }
  refuseDeeperThan(JSON_MAX_DEPTH, value);
  return value;
}

function refusalOf(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (message.startsWith('Object contains forbidden')) return FORBIDDEN_MEMBER;
  // V8's messages may quote the text; its position is all that is kept.
  const position = /at position (\d+)/.exec(message);
  return `The body is not valid JSON${position ? ` (at character ${position[1]})` : ''}`;
}

/** Level by level, without recursion: the body may be as deep as it is long. */
function refuseDeeperThan(limit: number, value: unknown): void {
  let level: object[] = typeof value === 'object' && value !== null ? [value] : [];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > limit) {
      throw new BadRequestException(
        `The body nests deeper than ${limit} levels of objects and arrays, the most this server reads`,
      );
    }
    const next: object[] = [];
    for (const node of level) {
      for (const item of Object.values(node)) {
        if (typeof item === 'object' && item !== null) next.push(item as object);
      }
    }
    level = next;
  }
}
