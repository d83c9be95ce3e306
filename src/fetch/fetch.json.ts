import { FetchQueryError } from './fetch.schema';
import { EntityQuery } from './fetch.tree';
import { FetchLimits as DepthLimits, fetchProblems } from './fetch.validation';

type Json = Record<string, unknown>;

const QUERY_KEYS = ['entity', 'properties', 'links', 'filter', 'orderBy', 'offset', 'limit'];
const SHAPES: Record<string, Record<string, string>> = {
  query: {
    entity: 'string',
    properties: 'array',
    links: 'array',
    filter: 'array',
    orderBy: 'array',
    offset: 'number',
    limit: 'number',
  },
  item: {
    property: 'string',
    aggregate: 'string',
    distinct: 'boolean',
    dateGrouping: 'string',
    alias: 'string',
    groupBy: 'boolean',
  },
  group: { type: 'string', conditions: 'array', filter: 'array' },
  order: { name: 'string', asc: 'boolean' },
};

/**
 * A FETCH tree sent as JSON (FETCH.md §4): `{"fetch":[query]}` or the query itself.
 * Its shape is checked first (types, known keys, bounded depth), so that the rules of
 * fetch.validation.ts, which the parser's trees follow by construction, hold for it too.
 */
export function queryFromJson(body: unknown, limits: DepthLimits): EntityQuery {
  const document = object(body, 'the body');
  let query: unknown = document;
  if ('fetch' in document) {
    const list = document.fetch;
    if (!Array.isArray(list) || list.length !== 1) {
      throw new FetchQueryError('"fetch" must be an array of exactly one query');
    }
    query = list[0];
  }
  checkQuery(query, 'fetch[0]', false, 0, limits);
  const problem = fetchProblems(query as EntityQuery, limits)[0];
  if (problem) throw new FetchQueryError(problem.reason);
  return query as EntityQuery;
}

function checkQuery(
  value: unknown,
  path: string,
  link: boolean,
  depth: number,
  limits: DepthLimits,
): void {
  if (depth > limits.linkDepth) {
    throw new FetchQueryError(`links are nested deeper than ${limits.linkDepth}`);
  }
  const query = object(value, path);
  const shape = link
    ? { ...SHAPES.query, alias: 'string', linkType: 'string', from: 'string', to: 'string' }
    : SHAPES.query;
  fields(query, shape, path);
  if (typeof query.entity !== 'string') throw new FetchQueryError(`${path}.entity is required`);
  if (link && typeof query.to !== 'string') throw new FetchQueryError(`${path}.to is required`);
  each(query.properties, `${path}.properties`, (item, at) =>
    fields(object(item, at), SHAPES.item, at),
  );
  each(query.orderBy, `${path}.orderBy`, (order, at) =>
    fields(object(order, at), SHAPES.order, at),
  );
  each(query.filter, `${path}.filter`, (group, at) => checkGroup(group, at, 0, limits));
  each(query.links, `${path}.links`, (inner, at) => checkQuery(inner, at, true, depth + 1, limits));
}

function checkGroup(value: unknown, path: string, depth: number, limits: DepthLimits): void {
  if (depth > limits.parenthesesDepth) {
    throw new FetchQueryError(`filters are nested deeper than ${limits.parenthesesDepth}`);
  }
  const group = object(value, path);
  fields(group, SHAPES.group, path);
  each(group.conditions, `${path}.conditions`, (condition, at) => {
    const { property, operator } = object(condition, at);
    const extra = Object.keys(condition as Json).find(
      (k) => !['property', 'operator', 'value'].includes(k),
    );
    if (extra) throw new FetchQueryError(`${at}: unknown key "${extra}"`);
    if (typeof property !== 'string' || typeof operator !== 'string') {
      throw new FetchQueryError(`${at} needs a string property and operator`);
    }
  });
  each(group.filter, `${path}.filter`, (inner, at) => checkGroup(inner, at, depth + 1, limits));
}

/** Known keys with the right JSON types; `false` flags are dropped ("false is left out"). */
function fields(value: Json, shape: Record<string, string>, path: string): void {
  for (const [key, field] of Object.entries(value)) {
    const expected = shape[key];
    if (!expected) throw new FetchQueryError(`${path}: unknown key "${key}"`);
    const actual = Array.isArray(field) ? 'array' : typeof field;
    if (actual !== expected) throw new FetchQueryError(`${path}.${key} must be a ${expected}`);
    if (field === false && !QUERY_KEYS.includes(key) && key !== 'asc') delete value[key];
  }
}

function each(list: unknown, path: string, check: (item: unknown, at: string) => void): void {
  if (Array.isArray(list)) list.forEach((item, i) => check(item, `${path}[${i}]`));
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FetchQueryError(`${path} must be an object`);
  }
  return value as Json;
}
