import { isDate } from './fetch.conditions';
import { groupName, resultKey, SelectedItem, selectedItems } from './fetch.keys';
import {
  AGGREGATES,
  Condition,
  DATE_GROUPINGS,
  EntityQuery,
  FilterGroup,
  LINK_TYPES,
  LinkQuery,
  PropertyItem,
  valueShape,
  ValueShape,
} from './fetch.tree';

/**
 * Rules a tree must follow whatever the schema: the parser applies them to every query
 * it reads, and a tree that arrives as JSON needs them too. A tree without problems
 * prints as FETCH text that parses back to the same tree.
 */
export interface FetchLimits {
  linkDepth: number;
  parenthesesDepth: number;
}

/** Depth bounds, so no query can exhaust the stack or the SQL planner. */
export const FETCH_LIMITS: FetchLimits = { linkDepth: 10, parenthesesDepth: 32 };

export interface FetchProblem {
  /** The tree node at fault; the parser maps it back to a line and column. */
  node: object;
  /** Set when the fault is the node's alias rather than the node itself. */
  field?: 'alias';
  reason: string;
}

export function* fetchProblems(
  query: EntityQuery,
  limits: FetchLimits = FETCH_LIMITS,
): Generator<FetchProblem> {
  if (!query.properties) yield { node: query, reason: 'the query has no select list' };
  yield* entityProblems(query, 0, limits);
  const items = selectedItems(query);
  yield* groupingProblems(items);
  yield* keyProblems(query, items);
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COLUMN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

const isIdent = (value: unknown) => typeof value === 'string' && IDENT.test(value);
const isColumn = (value: unknown) => typeof value === 'string' && COLUMN.test(value);
const quote = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? String(value);

function* entityProblems(
  entity: EntityQuery,
  depth: number,
  limits: FetchLimits,
): Generator<FetchProblem> {
  if (!isIdent(entity.entity)) {
    yield { node: entity, reason: `${quote(entity.entity)} is not an entity name` };
  }
  if (entity.properties) yield* selectProblems(entity.properties);
  for (const link of entity.links ?? []) yield* linkProblems(link, depth + 1, limits);
  for (const group of entity.filter ?? []) yield* groupProblems(group, 0, limits);
  for (const order of entity.orderBy ?? []) {
    if (!isIdent(order.name)) yield { node: order, reason: `cannot ORDER BY ${quote(order.name)}` };
  }
  for (const key of ['offset', 'limit'] as const) {
    const value = entity[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
      yield { node: entity, reason: `${key.toUpperCase()} must be a non-negative integer` };
    }
  }
}

function* selectProblems(items: PropertyItem[]): Generator<FetchProblem> {
  if (items.length === 0) yield { node: items, reason: 'the select list is empty' };
  for (const item of items) {
    if (item.property === '*' && item.aggregate === undefined) {
      if (items.length > 1 || item.alias || item.dateGrouping || item.distinct) {
        yield { node: item, reason: '* stands alone in its select list' };
      }
    } else {
      yield* itemProblems(item);
    }
  }
}

function* itemProblems(item: PropertyItem): Generator<FetchProblem> {
  const { property, aggregate, dateGrouping, alias } = item;
  if (aggregate === 'count') {
    if (property !== '*' || item.distinct) {
      yield { node: item, reason: 'aggregate "count" is COUNT(*): its property is "*"' };
    }
  } else if (!isColumn(property)) {
    yield { node: item, reason: `${quote(property)} is not a column` };
  }
  if (aggregate !== undefined && !AGGREGATES.includes(aggregate)) {
    yield { node: item, reason: `unknown aggregate ${quote(aggregate)}` };
  }
  if (dateGrouping !== undefined && !DATE_GROUPINGS.includes(dateGrouping)) {
    yield { node: item, reason: `unknown date grouping ${quote(dateGrouping)}` };
  }
  if (aggregate && dateGrouping) {
    yield { node: item, reason: 'an item cannot be both an aggregate and a date group' };
  }
  if (item.distinct && (!aggregate || aggregate === 'count')) {
    yield { node: item, reason: 'DISTINCT needs an aggregate of a column' };
  }
  if (alias !== undefined && !isIdent(alias)) {
    yield { node: item, field: 'alias', reason: `${quote(alias)} is not an alias` };
  }
}

function* linkProblems(
  link: LinkQuery,
  depth: number,
  limits: FetchLimits,
): Generator<FetchProblem> {
  if (depth > limits.linkDepth) {
    yield { node: link, reason: `links are nested deeper than ${limits.linkDepth}` };
    return;
  }
  if (!isIdent(link.to))
    yield { node: link, reason: `link TO ${quote(link.to)} is not a property` };
  if (link.from !== undefined && !isIdent(link.from)) {
    yield { node: link, reason: `link FROM ${quote(link.from)} is not a property` };
  }
  if (link.alias !== undefined && !isIdent(link.alias)) {
    yield { node: link, field: 'alias', reason: `${quote(link.alias)} is not an alias` };
  }
  if (link.linkType !== undefined && !LINK_TYPES.includes(link.linkType)) {
    yield { node: link, reason: `unknown link type ${quote(link.linkType)}` };
  }
  if (link.linkType === 'exists' || link.linkType === 'not-exists') {
    const select = firstSelect(link);
    if (select) {
      const kind = link.linkType === 'exists' ? 'an EXISTS' : 'a NOT EXISTS';
      yield { node: select, reason: `${kind} link selects no columns: remove this select list` };
    }
  }
  yield* entityProblems(link, depth, limits);
}

/** EXISTS keeps each parent row once, so neither the link nor a link inside it selects. */
function firstSelect(entity: EntityQuery): PropertyItem[] | undefined {
  if (entity.properties?.length) return entity.properties;
  for (const link of entity.links ?? []) {
    const select = firstSelect(link);
    if (select) return select;
  }
  return undefined;
}

/** `depth` counts the groups around this one: each needs a pair of parentheses. */
function* groupProblems(
  group: FilterGroup,
  depth: number,
  limits: FetchLimits,
): Generator<FetchProblem> {
  if (depth > limits.parenthesesDepth) {
    yield { node: group, reason: `filters are nested deeper than ${limits.parenthesesDepth}` };
    return;
  }
  if (group.type !== 'And' && group.type !== 'Or') {
    yield {
      node: group,
      reason: `a filter group's type is "And" or "Or", not ${quote(group.type)}`,
    };
  }
  if (!group.conditions?.length && !group.filter?.length) {
    yield { node: group, reason: 'a filter group has no conditions' };
  }
  for (const condition of group.conditions ?? []) yield* conditionProblems(condition);
  for (const inner of group.filter ?? []) yield* groupProblems(inner, depth + 1, limits);
}

function* conditionProblems(condition: Condition): Generator<FetchProblem> {
  if (!isColumn(condition.property)) {
    yield { node: condition, reason: `${quote(condition.property)} is not a column` };
  }
  const shape = valueShape(condition.operator);
  if (!shape) {
    yield { node: condition, reason: `unknown operator ${quote(condition.operator)}` };
  } else if (!fits(shape, condition.value)) {
    yield { node: condition, reason: `operator ${condition.operator} ${SHAPE_RULES[shape]}` };
  }
}

const SHAPE_RULES: Record<ValueShape, string> = {
  scalar: 'takes a string, number, boolean or null value',
  string: 'takes a string value',
  date: "takes a date value 'YYYY-MM-DD'",
  list: 'takes an array of one or more values',
  pair: 'takes an array of two values',
  none: 'takes no value',
  count: 'takes a non-negative integer value',
};

function fits(shape: ValueShape, value: unknown): boolean {
  switch (shape) {
    case 'none':
      return value === undefined;
    case 'scalar':
      return isScalar(value);
    case 'string':
      return typeof value === 'string';
    case 'date':
      return typeof value === 'string' && isDate(value);
    case 'list':
      return Array.isArray(value) && value.length > 0 && value.every(isScalar);
    case 'pair':
      return Array.isArray(value) && value.length === 2 && value.every(isScalar);
    case 'count':
      return Number.isSafeInteger(value) && (value as number) >= 0;
  }
}

function isScalar(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** GROUP BY, as FetchXML's groupby flags: with an aggregate, every other item is grouped. */
function* groupingProblems(items: SelectedItem[]): Generator<FetchProblem> {
  const aggregated = items.some(({ item }) => item.aggregate);
  for (const selected of items) {
    const { item } = selected;
    if (item.groupBy) {
      if (item.aggregate) yield { node: item, reason: 'an aggregate cannot be in GROUP BY' };
      else if (groupName(selected) === undefined) {
        yield { node: item, reason: 'only an aliased item or a root column can be in GROUP BY' };
      }
    } else if (aggregated && !item.aggregate) {
      yield {
        node: item,
        reason:
          item.property === '*'
            ? '* cannot be selected with an aggregate'
            : `"${resultKey(selected)}" must be in GROUP BY or aggregated, as the query has an aggregate`,
      };
    }
  }
}

/** Result rows are flat (FETCH.md §2): two items with one key would overwrite each other. */
function* keyProblems(query: EntityQuery, items: SelectedItem[]): Generator<FetchProblem> {
  const seen = new Map<string, PropertyItem>();
  for (const selected of items) {
    const key = resultKey(selected);
    if (key === undefined || selected.link?.linkType?.includes('exists')) continue;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, selected.item);
    } else if (first.alias && selected.item.alias) {
      yield { node: selected.item, field: 'alias', reason: `alias "${key}" is used twice` };
    } else {
      yield {
        node: selected.item,
        field: selected.item.alias ? 'alias' : undefined,
        reason: `two selected items are both named "${key}" in the result: give one an alias`,
      };
    }
  }
  const linkAliases = new Set<string>();
  const visit = function* (entity: EntityQuery): Generator<FetchProblem> {
    for (const link of entity.links ?? []) {
      if (link.alias !== undefined && linkAliases.has(link.alias)) {
        yield { node: link, field: 'alias', reason: `link alias "${link.alias}" is used twice` };
      }
      if (link.alias !== undefined) linkAliases.add(link.alias);
      yield* visit(link);
    }
  };
  yield* visit(query);
}
