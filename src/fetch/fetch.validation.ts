import { didYouMean } from '../common/nearest-name';
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
 * prints as FETCH text; that text parses back to the same tree when the tree is in the
 * parser's canonical form (groups flattened, `asc` only when true, one top-level group).
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

/** Every problem of the tree, in no particular order (the parser reports the first in the text). */
export function fetchProblems(
  query: EntityQuery,
  limits: FetchLimits = FETCH_LIMITS,
): FetchProblem[] {
  // Plain functions pushing to one list: generators made validation a quarter of a parse.
  const problems: FetchProblem[] = [];
  if (!query.properties) problems.push({ node: query, reason: 'the query has no select list' });
  entityProblems(problems, query, 0, limits);
  const items = selectedItems(query);
  groupingProblems(problems, items);
  referenceProblems(problems, query);
  keyProblems(problems, items);
  return problems;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COLUMN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

const isIdent = (value: unknown) => typeof value === 'string' && IDENT.test(value);
const isColumn = (value: unknown) => typeof value === 'string' && COLUMN.test(value);
const quote = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? String(value);

function entityProblems(
  problems: FetchProblem[],
  entity: EntityQuery,
  depth: number,
  limits: FetchLimits,
): void {
  if (!isIdent(entity.entity)) {
    problems.push({ node: entity, reason: `${quote(entity.entity)} is not an entity name` });
  }
  if (entity.properties) selectProblems(problems, entity.properties);
  for (const link of entity.links ?? []) linkProblems(problems, link, depth + 1, limits);
  for (const group of entity.filter ?? []) groupProblems(problems, group, 0, limits);
  for (const order of entity.orderBy ?? []) {
    if (!isIdent(order.name))
      problems.push({ node: order, reason: `cannot ORDER BY ${quote(order.name)}` });
  }
  for (const key of ['offset', 'limit'] as const) {
    const value = entity[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
      problems.push({
        node: entity,
        reason: `${key.toUpperCase()} must be a non-negative integer`,
      });
    }
  }
}

function selectProblems(problems: FetchProblem[], items: PropertyItem[]): void {
  if (items.length === 0) problems.push({ node: items, reason: 'the select list is empty' });
  for (const item of items) {
    if (item.property === '*' && item.aggregate === undefined) {
      if (items.length > 1 || item.alias || item.dateGrouping || item.distinct) {
        problems.push({ node: item, reason: '* stands alone in its select list' });
      }
    } else {
      itemProblems(problems, item);
    }
  }
}

function itemProblems(problems: FetchProblem[], item: PropertyItem): void {
  const { property, aggregate, dateGrouping, alias } = item;
  if (aggregate === 'count') {
    if (property !== '*' || item.distinct) {
      problems.push({ node: item, reason: 'aggregate "count" is COUNT(*): its property is "*"' });
    }
  } else if (!isColumn(property)) {
    problems.push({ node: item, reason: `${quote(property)} is not a column` });
  }
  if (aggregate !== undefined && !AGGREGATES.includes(aggregate)) {
    problems.push({ node: item, reason: `unknown aggregate ${quote(aggregate)}` });
  }
  if (dateGrouping !== undefined && !DATE_GROUPINGS.includes(dateGrouping)) {
    problems.push({ node: item, reason: `unknown date grouping ${quote(dateGrouping)}` });
  }
  if (aggregate && dateGrouping) {
    problems.push({ node: item, reason: 'an item cannot be both an aggregate and a date group' });
  }
  if (item.distinct && (!aggregate || aggregate === 'count')) {
    problems.push({ node: item, reason: 'DISTINCT needs an aggregate of a column' });
  }
  if (alias !== undefined && !isIdent(alias)) {
    problems.push({ node: item, field: 'alias', reason: `${quote(alias)} is not an alias` });
  }
}

function linkProblems(
  problems: FetchProblem[],
  link: LinkQuery,
  depth: number,
  limits: FetchLimits,
): void {
  if (depth > limits.linkDepth) {
    problems.push({ node: link, reason: `links are nested deeper than ${limits.linkDepth}` });
    return;
  }
  if (!isIdent(link.to))
    problems.push({ node: link, reason: `link TO ${quote(link.to)} is not a property` });
  if (link.from !== undefined && !isIdent(link.from)) {
    problems.push({ node: link, reason: `link FROM ${quote(link.from)} is not a property` });
  }
  if (link.alias !== undefined && !isIdent(link.alias)) {
    problems.push({ node: link, field: 'alias', reason: `${quote(link.alias)} is not an alias` });
  }
  if (link.linkType !== undefined && !LINK_TYPES.includes(link.linkType)) {
    problems.push({ node: link, reason: `unknown link type ${quote(link.linkType)}` });
  }
  if (link.linkType === 'exists' || link.linkType === 'not-exists') {
    const select = firstSelect(link);
    if (select) {
      const kind = link.linkType === 'exists' ? 'an EXISTS' : 'a NOT EXISTS';
      problems.push({
        node: select,
        reason: `${kind} link selects no columns: remove this select list`,
      });
    }
  }
  entityProblems(problems, link, depth, limits);
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
function groupProblems(
  problems: FetchProblem[],
  group: FilterGroup,
  depth: number,
  limits: FetchLimits,
): void {
  if (depth > limits.parenthesesDepth) {
    problems.push({
      node: group,
      reason: `filters are nested deeper than ${limits.parenthesesDepth}`,
    });
    return;
  }
  if (group.type !== 'And' && group.type !== 'Or') {
    problems.push({
      node: group,
      reason: `a filter group's type is "And" or "Or", not ${quote(group.type)}`,
    });
  }
  if (!group.conditions?.length && !group.filter?.length) {
    problems.push({ node: group, reason: 'a filter group has no conditions' });
  }
  for (const condition of group.conditions ?? []) conditionProblems(problems, condition);
  for (const inner of group.filter ?? []) groupProblems(problems, inner, depth + 1, limits);
}

function conditionProblems(problems: FetchProblem[], condition: Condition): void {
  if (!isColumn(condition.property)) {
    problems.push({ node: condition, reason: `${quote(condition.property)} is not a column` });
  }
  const shape = valueShape(condition.operator);
  if (!shape) {
    problems.push({ node: condition, reason: `unknown operator ${quote(condition.operator)}` });
  } else if (!fits(shape, condition.value)) {
    problems.push({
      node: condition,
      reason: `operator ${condition.operator} ${SHAPE_RULES[shape]}`,
    });
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
function groupingProblems(problems: FetchProblem[], items: SelectedItem[]): void {
  const aggregated = items.some(({ item }) => item.aggregate);
  for (const selected of items) {
    const { item } = selected;
    if (item.groupBy) {
      if (item.aggregate)
        problems.push({ node: item, reason: 'an aggregate cannot be in GROUP BY' });
      else if (groupName(selected) === undefined) {
        problems.push({
          node: item,
          reason: 'only an aliased item or a root column can be in GROUP BY',
        });
      }
    } else if (aggregated && !item.aggregate) {
      problems.push({
        node: item,
        reason:
          item.property === '*'
            ? '* cannot be selected with an aggregate'
            : `"${resultKey(selected)}" must be in GROUP BY or aggregated, as the query has an aggregate`,
      });
    }
  }
}

/** Result rows are flat (FETCH.md §2): two items with one key would overwrite each other. */
function keyProblems(problems: FetchProblem[], items: SelectedItem[]): void {
  const seen = new Map<string, PropertyItem>();
  for (const selected of items) {
    const key = resultKey(selected);
    if (key === undefined || selected.link?.linkType?.includes('exists')) continue;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, selected.item);
    } else if (first.alias && selected.item.alias) {
      problems.push({
        node: selected.item,
        field: 'alias',
        reason: `alias "${key}" is used twice`,
      });
    } else {
      problems.push({
        node: selected.item,
        field: selected.item.alias ? 'alias' : undefined,
        reason: `two selected items are both named "${key}" in the result: give one an alias`,
      });
    }
  }
}

/**
 * A link is named by its alias, else its entity (FETCH.md §2): `name.property` must name
 * exactly one link, and not an EXISTS link from outside it, whose rows are never joined.
 */
function referenceProblems(problems: FetchProblem[], query: EntityQuery): void {
  const links = new Map<string, LinkQuery>();
  const name = (link: LinkQuery) => link.alias ?? link.entity;
  const collect = (entity: EntityQuery): void => {
    for (const link of entity.links ?? []) {
      if (!links.has(name(link))) links.set(name(link), link);
      else if (link.alias !== undefined) {
        problems.push({
          node: link,
          field: 'alias',
          reason: `link alias "${link.alias}" is used twice`,
        });
      } else {
        problems.push({
          node: link,
          reason: `two links are named "${link.entity}": give one an alias (AS …)`,
        });
      }
      collect(link);
    }
  };
  collect(query);

  const check = (node: object, column: unknown, enclosing: LinkQuery[]): void => {
    if (!isColumn(column)) return;
    const text = column as string;
    const dot = text.indexOf('.');
    if (dot < 0) return;
    const qualifier = text.slice(0, dot);
    const link = links.get(qualifier);
    if (!link) {
      const hint = didYouMean(qualifier, links.keys());
      problems.push({
        node,
        reason: `"${qualifier}" in "${text}" names no link of the query${hint}`,
      });
    } else if (link.linkType?.includes('exists') && !enclosing.includes(link)) {
      problems.push({
        node,
        reason: `"${text}" is a column of an EXISTS link, which joins no rows: use it inside that link`,
      });
    }
  };
  const visit = (entity: EntityQuery, enclosing: LinkQuery[]): void => {
    for (const item of entity.properties ?? []) check(item, item.property, enclosing);
    const groups = [...(entity.filter ?? [])];
    for (const group of groups) {
      for (const condition of group.conditions ?? []) {
        check(condition, condition.property, enclosing);
      }
      groups.push(...(group.filter ?? []));
    }
    for (const link of entity.links ?? []) visit(link, [...enclosing, link]);
  };
  visit(query, []);
}
