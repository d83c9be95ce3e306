import { groupName, selectedItems } from './fetch.keys';
import { formatNumber } from './fetch.numbers';
import { currentValueWord, operatorText } from './fetch.operators';
import {
  Condition,
  CURRENT_OPERATORS,
  CurrentOperator,
  EntityQuery,
  FilterGroup,
  LinkQuery,
  OrderItem,
  PropertyItem,
  Scalar,
  valueShape,
} from './fetch.tree';

/**
 * Canonical FETCH text for a tree, on one line: keywords upper-case, defaults (INNER,
 * ASC) left out, OFFSET before LIMIT. For a tree the parser made (or any tree in its
 * canonical form), `parseFetch(printFetch(tree))` equals the tree; another valid tree
 * reads back as the same query in canonical form.
 */
export function printFetch(query: EntityQuery): string {
  const parts = ['FETCH', query.entity, select(query.properties ?? [])];
  body(query, parts);
  const grouped = selectedItems(query)
    .filter(({ item }) => item.groupBy)
    .map((selected) => groupName(selected) ?? selected.item.property);
  if (grouped.length > 0) parts.push('GROUP BY', [...new Set(grouped)].join(', '));
  tail(query, parts);
  return parts.join(' ');
}

function body(entity: EntityQuery, parts: string[]): void {
  for (const link of entity.links ?? []) parts.push(printLink(link));
  if (entity.filter?.length) parts.push('WHERE', filter(entity.filter));
}

function tail(entity: EntityQuery, parts: string[]): void {
  if (entity.orderBy?.length) parts.push('ORDER BY', entity.orderBy.map(order).join(', '));
  if (entity.offset !== undefined) parts.push('OFFSET', String(entity.offset));
  if (entity.limit !== undefined) parts.push('LIMIT', String(entity.limit));
}

function printLink(link: LinkQuery): string {
  const parts = ['{', link.entity];
  if (link.alias) parts.push('AS', link.alias);
  if (link.linkType === 'outer') parts.push('OUTER');
  if (link.linkType === 'exists') parts.push('EXISTS');
  if (link.linkType === 'not-exists') parts.push('NOT EXISTS');
  if (link.from) parts.push('FROM', link.from);
  parts.push('TO', link.to);
  if (link.properties?.length) parts.push(select(link.properties));
  body(link, parts);
  tail(link, parts);
  parts.push('}');
  return parts.join(' ');
}

function select(items: PropertyItem[]): string {
  return `(${items.map(item).join(', ')})`;
}

function item({ property, aggregate, distinct, dateGrouping, alias }: PropertyItem): string {
  let text = property;
  if (aggregate === 'count') text = 'COUNT(*)';
  else if (aggregate) {
    const name = aggregate === 'countcolumn' ? 'COUNT' : aggregate.toUpperCase();
    text = `${name}(${distinct ? 'DISTINCT ' : ''}${property})`;
  } else if (dateGrouping) text = `${dateGrouping.toUpperCase()}(${property})`;
  return alias ? `${text} AS ${alias}` : text;
}

function order({ name, asc }: OrderItem): string {
  return asc ? name : `${name} DESC`;
}

/** Several top-level groups, which only a JSON tree can have, are ANDed. */
function filter(groups: FilterGroup[]): string {
  if (groups.length === 1) return group(groups[0]);
  return groups.map((g) => `(${group(g)})`).join(' AND ');
}

function group({ type, conditions = [], filter = [] }: FilterGroup): string {
  const members = [...conditions.map(condition), ...filter.map((g) => `(${group(g)})`)];
  return members.join(type === 'Or' ? ' OR ' : ' AND ');
}

const CURRENT = new Set<string>(CURRENT_OPERATORS);

function condition({ property, operator, value }: Condition): string {
  const words = operatorText(operator, value as number);
  switch (valueShape(operator)) {
    case 'none':
      return CURRENT.has(operator)
        ? `${property} ${words} ${currentValueWord(operator as CurrentOperator)}`
        : `${property} ${words}`;
    case 'count':
      return `${property} ${words}`;
    case 'list':
      return `${property} ${words} (${(value as Scalar[]).map(scalar).join(', ')})`;
    case 'pair': {
      const [low, high] = value as Scalar[];
      return `${property} ${words} ${scalar(low)} AND ${scalar(high)}`;
    }
    default:
      return `${property} ${words} ${scalar(value as Scalar)}`;
  }
}

function scalar(value: Scalar): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return formatNumber(value);
  return `'${value.replaceAll("'", "''")}'`;
}
