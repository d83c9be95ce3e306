import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { FetchSyntaxError } from './fetch.errors';
import { groupName, resultKey, selectedItems } from './fetch.keys';
import { parseFetch } from './fetch.parser';
import { printFetch } from './fetch.printer';
import {
  COMPARISONS,
  Condition,
  CURRENT_OPERATORS,
  DATE_GROUPINGS,
  DATE_OPERATORS,
  EntityQuery,
  FilterGroup,
  LINK_TYPES,
  LinkQuery,
  OrderItem,
  PERIODS,
  PropertyItem,
  RELATIVE_OPERATORS,
  Scalar,
  STRING_OPERATORS,
} from './fetch.tree';
import { fetchProblems } from './fetch.validation';

/**
 * Cases per property: 1,000 by default (the suite stays fast), 10,000 in CI (.ci/run);
 * FETCH_PROPERTY_RUNS=1000000 for a long local run.
 */
const RUNS = Number(process.env.FETCH_PROPERTY_RUNS ?? 1_000);
/** FETCH_PROPERTY_SEED replays the cases of a failed run (fast-check prints its seed). */
const SEED = process.env.FETCH_PROPERTY_SEED ? Number(process.env.FETCH_PROPERTY_SEED) : undefined;
/** Generous, since the machine is shared: a parse takes microseconds. */
const MAX_PARSE_MS = 1000;
const TIMEOUT_MS = Math.max(120_000, RUNS * 10);

/** Keywords as names too, in both cases: no word is reserved. */
const WORDS = [
  'FETCH', 'AS', 'COUNT', 'SUM', 'AVG', 'MIN', 'MAX', 'DISTINCT', 'DAY', 'WEEK', 'MONTH',
  'QUARTER', 'YEAR', 'INNER', 'OUTER', 'EXISTS', 'NOT', 'FROM', 'TO', 'WHERE', 'OR', 'AND',
  'LIKE', 'IN', 'BETWEEN', 'IS', 'NULL', 'BEGINS', 'ENDS', 'CONTAINS', 'WITH', 'ON', 'AFTER',
  'BEFORE', 'TODAY', 'THIS', 'LAST', 'NEXT', 'OLDER', 'THAN', 'TRUE', 'FALSE', 'CURRENT_USER',
  'GROUP', 'BY', 'ORDER', 'ASC', 'DESC', 'OFFSET', 'LIMIT', 'DAYS', 'key',
]; // prettier-ignore

const ident = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,7}$/) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...WORDS), fc.boolean()) .map(([w, lower]) => (lower ? w.toLowerCase() : w)) },
); // prettier-ignore
const column = fc.oneof(
  { weight: 4, arbitrary: ident },
  { weight: 1, arbitrary: fc.tuple(ident, ident).map(([a, b]) => `${a}.${b}`) },
);
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

/** Drops undefined keys, as the parser never writes them. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const number = fc
  .oneof(fc.integer(), fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true }))
  .map((n) => (n === 0 ? 0 : n)); // JSON has no -0
/** Text a query can hold: any but U+0000, which PostgreSQL's text cannot (a 400 of its own). */
const text = fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.replaceAll('\0', ''));
const scalar: fc.Arbitrary<Scalar> = fc.oneof(text, number, fc.boolean(), fc.constant(null));
const date = fc
  .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ property: column, operator: fc.constantFrom(...COMPARISONS), value: scalar }),
  fc.record({ property: column, operator: fc.constantFrom(...STRING_OPERATORS), value: text }),
  fc.record({ property: column, operator: fc.constantFrom(...DATE_OPERATORS), value: date }),
  fc.record({ property: column, operator: fc.constantFrom('in' as const, 'not-in' as const), value: fc.array(scalar, { minLength: 1, maxLength: 4 }) }),
  fc.record({ property: column, operator: fc.constantFrom('between' as const, 'not-between' as const), value: fc.tuple(scalar, scalar) }),
  fc.record({ property: column, operator: fc.constantFrom('null' as const, 'not-null' as const, ...PERIODS, ...CURRENT_OPERATORS) }),
  fc.record({ property: column, operator: fc.constantFrom(...RELATIVE_OPERATORS), value: fc.oneof(fc.nat(1000), fc.maxSafeNat()) }),
); // prettier-ignore

/** Canonical groups: two or more members, nested groups of the other type. */
function group(type: 'And' | 'Or', depth: number): fc.Arbitrary<FilterGroup> {
  const inner = depth > 0 ? group(type === 'And' ? 'Or' : 'And', depth - 1) : undefined;
  return fc
    .tuple(
      fc.array(condition, { maxLength: 3 }),
      inner ? fc.array(inner, { maxLength: 2 }) : fc.constant<FilterGroup[]>([]),
    )
    .filter(([conditions, groups]) => conditions.length + groups.length >= 2)
    .map(([conditions, groups]) =>
      compact({
        type,
        conditions: conditions.length ? conditions : undefined,
        filter: groups.length ? groups : undefined,
      }),
    );
}

/** A lone condition is an And group of one; anything else is a canonical group. */
const filter: fc.Arbitrary<FilterGroup[]> = fc.oneof(
  condition.map((c) => [{ type: 'And' as const, conditions: [c] }]),
  fc.constantFrom('And' as const, 'Or' as const).chain((type) => group(type, 2).map((g) => [g])),
);

const item: fc.Arbitrary<PropertyItem> = fc
  .tuple(
    fc.oneof(
      column.map((property) => ({ property })),
      fc.record({ property: column, dateGrouping: fc.constantFrom(...DATE_GROUPINGS) }),
      fc.constant({ property: '*', aggregate: 'count' as const }),
      fc.record({
        property: column,
        aggregate: fc.constantFrom('countcolumn' as const, 'sum' as const, 'avg' as const, 'min' as const, 'max' as const),
        distinct: optional(fc.constant(true as const)),
      }), // prettier-ignore
    ),
    optional(ident),
    optional(fc.constant(true as const)),
  )
  .map(([base, alias, groupBy]) => compact({ ...base, alias, groupBy }) as PropertyItem);

const select = fc.oneof(
  { weight: 1, arbitrary: fc.constant([{ property: '*' }]) },
  { weight: 5, arbitrary: fc.array(item, { minLength: 1, maxLength: 4 }) },
);
const orderBy: fc.Arbitrary<OrderItem[]> = fc.array(
  fc.tuple(ident, fc.boolean()).map(([name, asc]) => (asc ? { name, asc } : { name })),
  { minLength: 1, maxLength: 3 },
);
const paging = { offset: optional(fc.maxSafeNat()), limit: optional(fc.nat(10_000)) };

function link(depth: number): fc.Arbitrary<LinkQuery> {
  return fc
    .record({
      entity: ident,
      alias: optional(ident),
      linkType: optional(fc.constantFrom(...LINK_TYPES)),
      from: optional(ident),
      to: ident,
      properties: optional(select),
      links:
        depth > 0
          ? optional(fc.array(link(depth - 1), { minLength: 1, maxLength: 2 }))
          : fc.constant(undefined),
      filter: optional(filter),
      orderBy: optional(orderBy),
      ...paging,
    }) // prettier-ignore
    .map((l) => compact(l) as LinkQuery);
}

const rawQuery: fc.Arbitrary<EntityQuery> = fc
  .record({
    entity: ident,
    properties: select,
    links: optional(fc.array(link(2), { minLength: 1, maxLength: 2 })),
    filter: optional(filter),
    orderBy: optional(orderBy),
    ...paging,
  })
  .map((q) => compact(q) as EntityQuery);

/** Any tree without validation problems: random trees, then the rules enforced. */
// A JSON copy, as constants (`*`) would otherwise be one object in several places.
const validQuery = rawQuery.map((query) => makeValid(JSON.parse(JSON.stringify(query))));

function makeValid(query: EntityQuery): EntityQuery {
  const used = new Set<string>();
  let n = 0;
  const fresh = () => {
    while (used.has(`u${n}`)) n++;
    used.add(`u${n}`);
    return `u${n}`;
  };
  stripExistsSelects(query, false);
  let items = selectedItems(query);
  for (const { item } of items) if (item.alias) used.add(item.alias);
  // Every link's name (its alias, else its entity) is taken: a fresh alias must not be one.
  const linkNames = (entity: EntityQuery): void =>
    entity.links?.forEach((l) => {
      used.add(l.alias ?? l.entity);
      linkNames(l);
    });
  linkNames(query);
  const joined: string[] = [];
  uniqueLinkNames(query, new Set(), fresh, joined);
  qualifyByLinks(query, joined);
  const aggregated = items.some(({ item }) => item.aggregate);
  for (const selected of items) {
    const { item } = selected;
    if (item.aggregate) delete item.groupBy;
    else if (aggregated || item.groupBy) {
      if (item.property === '*') item.property = 'star';
      item.groupBy = true;
      if (groupName(selected) === undefined) item.alias = fresh();
    }
  }
  items = selectedItems(query);
  const keys = new Set<string>();
  for (const selected of items) {
    let key = resultKey(selected);
    if (key === undefined) continue;
    if (keys.has(key)) key = selected.item.alias = fresh();
    keys.add(key);
    used.add(key);
  }
  return query;
}

function stripExistsSelects(entity: EntityQuery, inExists: boolean): void {
  for (const link of entity.links ?? []) {
    const exists = inExists || link.linkType === 'exists' || link.linkType === 'not-exists';
    if (exists) delete link.properties;
    stripExistsSelects(link, exists);
  }
}

/** Each link gets a name of its own (alias, else entity); `joined` lists the non-EXISTS ones. */
function uniqueLinkNames(
  entity: EntityQuery,
  seen: Set<string>,
  fresh: () => string,
  joined: string[],
): void {
  for (const link of entity.links ?? []) {
    if (seen.has(link.alias ?? link.entity)) link.alias = fresh();
    seen.add(link.alias ?? link.entity);
    if (!link.linkType?.includes('exists')) joined.push(link.alias ?? link.entity);
    uniqueLinkNames(link, seen, fresh, joined);
  }
}

/** A qualified column must name a joined link: point it at one, or drop the qualifier. */
function qualifyByLinks(entity: EntityQuery, joined: string[]): void {
  const requalify = (column: string): string => {
    const dot = column.indexOf('.');
    if (dot < 0) return column;
    const [qualifier, property] = [column.slice(0, dot), column.slice(dot + 1)];
    if (joined.includes(qualifier)) return column;
    return joined.length > 0 ? `${joined[qualifier.length % joined.length]}.${property}` : property;
  };
  for (const item of entity.properties ?? []) item.property = requalify(item.property);
  const groups = [...(entity.filter ?? [])];
  for (const group of groups) {
    for (const condition of group.conditions ?? []) {
      condition.property = requalify(condition.property);
    }
    groups.push(...(group.filter ?? []));
  }
  for (const link of entity.links ?? []) qualifyByLinks(link, joined);
}

/** Tokens and fragments that make random text look like FETCH often enough to go deep. */
const fragment = fc.oneof(
  fc.constantFrom(...WORDS, '(', ')', '{', '}', ',', '.', '*', ';', '=', '<>', '!=', '<', '<=', '>', '>=', '-', '--', "'", "''", '\n', '\r\n', '#', '"', '😀', '\u0000'), // prettier-ignore
  ident,
  fc.string({ unit: 'binary', maxLength: 6 }).map((s) => `'${s.replaceAll("'", "''")}'`),
  fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map(String),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const tokenSoup = fc
  .array(fc.tuple(fragment, fc.constantFrom(' ', '', '\n', '\t')), { maxLength: 60 })
  .map((parts) => parts.map(([text, space]) => text + space).join(''));

/** Valid beginnings, so that soups also reach the deeper rules. */
const SOUP_STARTS = [
  '',
  'FETCH e (',
  'FETCH e (x',
  'FETCH e (x) ',
  'FETCH e (x) WHERE ',
  'FETCH e (x) WHERE a ',
  'FETCH e (x) WHERE a = 1 ',
  'FETCH e (x) { l ',
  'FETCH e (x) { l TO t ',
  'FETCH e (COUNT(',
  'FETCH e (x, SUM(y)) GROUP BY ',
  'FETCH e (x) ORDER BY ',
];

type Mutation = { at: number; remove: number; insert: string };
const mutations = fc.array(
  fc.record({ at: fc.nat(), remove: fc.nat(8), insert: fc.oneof(fc.constant(''), fragment) }),
  { minLength: 1, maxLength: 4 },
);

function mutate(text: string, changes: Mutation[]): string {
  let result = text;
  for (const { at, remove, insert } of changes) {
    const start = at % (result.length + 1);
    result = result.slice(0, start) + insert + result.slice(start + remove);
  }
  return result;
}

/** Jest's diff only when needed: it is slow on large trees. */
function expectSameTree(actual: EntityQuery, expected: EntityQuery): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toStrictEqual(expected);
}

/**
 * The printed text of a parsed tree parses, to the same tree. A refusal of the printed
 * text fails the property, whatever its position: only the input may be refused.
 */
function expectRoundTrip(tree: EntityQuery, source: string): void {
  const printed = printFetch(tree);
  let reread: EntityQuery;
  try {
    reread = parseFetch(printed);
  } catch (error) {
    throw new Error(
      `The printed text of a parsed tree does not parse: ${(error as Error).message}\n` +
        `printed: ${JSON.stringify(printed)}\nfrom: ${JSON.stringify(source)}`,
    );
  }
  expectSameTree(reread, tree);
}

/** A FetchSyntaxError placed in `text`, the text it refuses. */
function expectPositionedIn(error: FetchSyntaxError, text: string): void {
  const lines = text.split(/\r\n|\r|\n/);
  expect(error.line).toBeGreaterThanOrEqual(1);
  expect(error.line).toBeLessThanOrEqual(lines.length);
  expect(error.column).toBeGreaterThanOrEqual(1);
  expect(error.column).toBeLessThanOrEqual([...lines[error.line - 1]].length + 1);
  expect(error.detail).toMatch(/^line \d+, column \d+: ./);
}

/**
 * A tree that prints and reads back the same, or a FetchSyntaxError placed in the text.
 * Only the parse of `text` may be refused; the round trip of what it gave must not be.
 */
function expectTreeOrPositionedError(text: string): void {
  const started = performance.now();
  let tree: EntityQuery | undefined;
  try {
    tree = parseFetch(text);
  } catch (error) {
    if (!(error instanceof FetchSyntaxError)) throw error;
    expectPositionedIn(error, text);
  }
  if (tree) expectRoundTrip(tree, text);
  expect(performance.now() - started).toBeLessThan(MAX_PARSE_MS);
}

describe(`FETCH properties (${RUNS} runs each)`, () => {
  const options = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) };

  it(
    'generates only trees without validation problems',
    () => {
      fc.assert(
        fc.property(validQuery, (query) => {
          expect([...fetchProblems(query)]).toEqual([]);
        }),
        { numRuns: Math.min(RUNS, 10_000) },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'parse(print(t)) equals t for any valid tree',
    () => {
      fc.assert(
        fc.property(validQuery, (query) => {
          expectSameTree(parseFetch(printFetch(query)), query);
        }),
        options,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'any string gives a tree or a positioned FetchSyntaxError, quickly',
    () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 300 }), expectTreeOrPositionedError),
        options,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'any soup of FETCH tokens gives a tree or a positioned FetchSyntaxError, quickly',
    () => {
      fc.assert(
        fc.property(fc.tuple(fc.constantFrom(...SOUP_STARTS), tokenSoup), ([start, soup]) =>
          expectTreeOrPositionedError(start + soup),
        ),
        options,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'any mutation of a valid query gives a tree or a positioned FetchSyntaxError, quickly',
    () => {
      fc.assert(
        fc.property(validQuery, mutations, (query, changes) =>
          expectTreeOrPositionedError(mutate(printFetch(query), changes)),
        ),
        options,
      );
    },
    TIMEOUT_MS,
  );
});
