import { Identity } from '../common/identity';
import { quoteIdentifier, SqlParameters } from '../database/sql';
import { PropertyDefinition } from '../model/entity-type';
import { Column, FetchQueryError, ResolvedQuery, Source } from './fetch.schema';
import { Condition, FilterGroup, Period, Scalar } from './fetch.tree';
import { conditionValue } from './fetch.values';

const COMPARISON_SQL: Record<string, string> = {
  eq: '=',
  ne: '<>',
  lt: '<',
  le: '<=',
  gt: '>',
  ge: '>=',
};

/** make_interval's argument per FETCH unit. */
const INTERVAL_FIELDS: Record<string, string> = {
  minutes: 'mins',
  hours: 'hours',
  days: 'days',
  weeks: 'weeks',
  months: 'months',
  years: 'years',
};

/** Each fixed period as [date_trunc unit, first offset, end offset] around now, in UTC. */
const PERIOD_RANGES: Record<Period, [string, number, number]> = {
  today: ['day', 0, 1],
  yesterday: ['day', -1, 0],
  tomorrow: ['day', 1, 2],
  'this-week': ['week', 0, 1],
  'last-week': ['week', -1, 0],
  'next-week': ['week', 1, 2],
  'this-month': ['month', 0, 1],
  'last-month': ['month', -1, 0],
  'next-month': ['month', 1, 2],
  'this-year': ['year', 0, 1],
  'last-year': ['year', -1, 0],
  'next-year': ['year', 1, 2],
};

const IDENTITY_KEYS = {
  userid: (identity: Identity) => identity.userKey,
  businessid: (identity: Identity) => identity.businessUnitKey,
  organizationid: (identity: Identity) => identity.organizationKey,
} as const;

export interface PredicateContext {
  resolved: ResolvedQuery;
  params: SqlParameters;
  identity: Identity;
  maxInList: number;
}

/** A column's SQL: `t1."name"`. */
export function columnSql({ source, property }: Column): string {
  return `${source.alias}.${quoteIdentifier(property.name)}`;
}

/** A filter (its groups ANDed) as one SQL condition, or undefined when there is none. */
export function filterSql(
  groups: FilterGroup[] | undefined,
  context: Source,
  ctx: PredicateContext,
): string | undefined {
  if (!groups?.length) return undefined;
  return groups.map((group) => groupSql(group, context, ctx)).join(' AND ');
}

function groupSql(group: FilterGroup, context: Source, ctx: PredicateContext): string {
  const parts = [
    ...(group.conditions ?? []).map((condition) => conditionSql(condition, context, ctx)),
    ...(group.filter ?? []).map((inner) => groupSql(inner, context, ctx)),
  ];
  return `(${parts.join(group.type === 'Or' ? ' OR ' : ' AND ')})`;
}

/**
 * FETCH.md §2's meaning of each operator over one column. Every value is bound with the
 * column's type; dates and periods are computed by PostgreSQL at query time, in UTC.
 */
function conditionSql(condition: Condition, context: Source, ctx: PredicateContext): string {
  const column = ctx.resolved.column(condition.property, context);
  const { property } = column;
  const sql = columnSql(column);
  const { operator, value } = condition;
  const path = condition.property;
  const bind = (v: Scalar) => ctx.params.bind(conditionValue(property, v, path), property.castType);

  if (operator === 'null') return `${sql} IS NULL`;
  if (operator === 'not-null') return `${sql} IS NOT NULL`;
  if (operator in COMPARISON_SQL) {
    if (value === null && (operator === 'eq' || operator === 'ne')) {
      return `${sql} IS ${operator === 'eq' ? '' : 'NOT '}NULL`;
    }
    return `${sql} ${COMPARISON_SQL[operator]} ${bind(value as Scalar)}`;
  }
  if (operator === 'in' || operator === 'not-in') {
    return inSql(operator, column, sql, value as Scalar[], ctx);
  }
  if (operator === 'between' || operator === 'not-between') {
    const [low, high] = value as Scalar[];
    const between = `${sql} BETWEEN ${bind(low)} AND ${bind(high)}`;
    return operator === 'between' ? between : `NOT (${between})`;
  }
  if (operator.startsWith('eq-') || operator.startsWith('ne-')) {
    return identitySql(operator, column, sql, ctx);
  }
  if (operator === 'like' || operator === 'not-like') {
    requireString(column, path, operator);
    return `${textOf(sql, property)} ${operator === 'like' ? 'LIKE' : 'NOT LIKE'} ${ctx.params.bind(value)}`;
  }
  if (operator === 'begins-with' || operator === 'ends-with' || operator === 'contains') {
    requireString(column, path, operator);
    const text = escapeLike(value as string);
    const pattern =
      operator === 'begins-with' ? `${text}%` : operator === 'ends-with' ? `%${text}` : `%${text}%`;
    return `${textOf(sql, property)} ILIKE ${ctx.params.bind(pattern)}`;
  }
  return dateSql(condition, column, sql, ctx);
}

/** IN / NOT IN, with a NULL in the list meaning IS NULL (SQL's IN would never match it). */
function inSql(
  operator: 'in' | 'not-in',
  column: Column,
  sql: string,
  values: Scalar[],
  ctx: PredicateContext,
): string {
  const { property } = column;
  if (values.length > ctx.maxInList) {
    throw new FetchQueryError(
      `${property.name}: an IN list holds at most ${ctx.maxInList} values, not ${values.length}`,
    );
  }
  const present = values.filter((v) => v !== null);
  const list = ctx.params.bind(
    present.map((v) => conditionValue(property, v, property.name)),
    `${property.castType}[]`,
  );
  const withNull = present.length < values.length;
  if (operator === 'in') return `(${sql} = ANY(${list})${withNull ? ` OR ${sql} IS NULL` : ''})`;
  return `(NOT (${sql} = ANY(${list}))${withNull ? ` AND ${sql} IS NOT NULL` : ''})`;
}

function identitySql(operator: string, column: Column, sql: string, ctx: PredicateContext): string {
  const { property } = column;
  if (property.type !== 'integer' && property.type !== 'bigint') {
    throw new FetchQueryError(
      `${property.name}: CURRENT_USER and friends compare with a key, not a ${property.type}`,
    );
  }
  const which = operator.slice(3) as keyof typeof IDENTITY_KEYS;
  const key = ctx.params.bind(IDENTITY_KEYS[which](ctx.identity), 'int8');
  return operator.startsWith('eq-') ? `${sql} = ${key}` : `${sql} <> ${key}`;
}

/** ON …, the periods and the LAST / NEXT / OLDER THAN n units, over date-times or dates. */
function dateSql(condition: Condition, column: Column, sql: string, ctx: PredicateContext): string {
  const { property } = column;
  const { operator, value } = condition;
  if (property.type !== 'datetime' && property.type !== 'date') {
    throw new FetchQueryError(
      `${condition.property}: ${operator} needs a date or date-time column, not a ${property.type}`,
    );
  }
  // A date is the instant its day starts, in UTC: one set of rules for both types.
  const instant = property.type === 'date' ? `(${sql}::timestamp AT TIME ZONE 'UTC')` : sql;
  if (operator === 'on' || operator === 'on-or-after' || operator === 'on-or-before') {
    const day = ctx.params.bind(`${value as string}T00:00:00Z`, 'timestamptz');
    const next = `${day} + interval '1 day'`;
    if (operator === 'on') return `(${instant} >= ${day} AND ${instant} < ${next})`;
    return operator === 'on-or-after' ? `${instant} >= ${day}` : `${instant} < ${next}`;
  }
  const period = PERIOD_RANGES[operator as Period];
  if (period) {
    const [unit, from, to] = period;
    return `(${instant} >= ${startOf(unit, from)} AND ${instant} < ${startOf(unit, to)})`;
  }
  const [when, , unit] = operator.split('-');
  const span = `make_interval(${INTERVAL_FIELDS[unit]} => ${ctx.params.bind(value, 'int4')})`;
  if (when === 'last') return `(${instant} >= now() - ${span} AND ${instant} <= now())`;
  if (when === 'next') return `(${instant} >= now() AND ${instant} <= now() + ${span})`;
  return `${instant} < now() - ${span}`;
}

/** The start of the current day/week/month/year in UTC, moved by `offset` of them. */
function startOf(unit: string, offset: number): string {
  const moved = offset === 0 ? '' : ` + interval '${offset} ${unit}'`;
  return `((date_trunc('${unit}', now() AT TIME ZONE 'UTC')${moved}) AT TIME ZONE 'UTC')`;
}

function requireString({ property }: Column, path: string, operator: string): void {
  if (property.type !== 'string') {
    throw new FetchQueryError(`${path}: ${operator} needs a string column, not a ${property.type}`);
  }
}

/** Enum columns are compared as their text by the pattern operators. */
function textOf(sql: string, property: PropertyDefinition): string {
  return property.castType === 'text' ? sql : `${sql}::text`;
}

/** BEGINS WITH 'a_b%' means those characters, not LIKE's wildcards. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
