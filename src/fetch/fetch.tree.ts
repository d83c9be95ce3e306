/**
 * The JSON tree of a FETCH query (FETCH.md §3, spec 2.6). Keys that are empty or false
 * are left out, so every optional key below is absent rather than `[]` or `false`.
 */

export const AGGREGATES = ['count', 'countcolumn', 'sum', 'avg', 'min', 'max'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

export const DATE_GROUPINGS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type DateGrouping = (typeof DATE_GROUPINGS)[number];

export const LINK_TYPES = ['outer', 'exists', 'not-exists'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export type Scalar = string | number | boolean | null;

export interface PropertyItem {
  /** A column, `alias.property` for a linked entity's column, or `*`. */
  property: string;
  aggregate?: Aggregate;
  distinct?: true;
  dateGrouping?: DateGrouping;
  alias?: string;
  groupBy?: true;
}

export interface Condition {
  property: string;
  operator: Operator;
  /** A scalar, an array for in / not-in / between / not-between, absent for value-less operators. */
  value?: Scalar | Scalar[];
}

export interface FilterGroup {
  type: 'And' | 'Or';
  conditions?: Condition[];
  filter?: FilterGroup[];
}

/** `asc` is a flag like the others: `ORDER BY x DESC` is `{"name":"x"}`. */
export interface OrderItem {
  name: string;
  asc?: boolean;
}

export interface EntityQuery {
  entity: string;
  properties?: PropertyItem[];
  links?: LinkQuery[];
  filter?: FilterGroup[];
  orderBy?: OrderItem[];
  offset?: number;
  limit?: number;
}

export interface LinkQuery extends EntityQuery {
  alias?: string;
  linkType?: LinkType;
  from?: string;
  to: string;
}

/** The body of `POST /rest/fetch/parse`. */
export interface FetchDocument {
  fetch: EntityQuery[];
}

export const RELATIVE_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months', 'years'] as const;
export type RelativeUnit = (typeof RELATIVE_UNITS)[number];

export const PERIODS = [
  'today',
  'yesterday',
  'tomorrow',
  'this-week',
  'last-week',
  'next-week',
  'this-month',
  'last-month',
  'next-month',
  'this-year',
  'last-year',
  'next-year',
] as const;
export type Period = (typeof PERIODS)[number];

export type RelativeOperator = `${'last' | 'next' | 'olderthan'}-x-${RelativeUnit}`;

export const CURRENT_OPERATORS = [
  'eq-userid',
  'eq-businessid',
  'eq-organizationid',
  'ne-userid',
  'ne-businessid',
  'ne-organizationid',
] as const;
export type CurrentOperator = (typeof CURRENT_OPERATORS)[number];

export const COMPARISONS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const;
export const STRING_OPERATORS = [
  'like',
  'not-like',
  'begins-with',
  'ends-with',
  'contains',
] as const;
export const DATE_OPERATORS = ['on', 'on-or-after', 'on-or-before'] as const;

export type Operator =
  | (typeof COMPARISONS)[number]
  | (typeof STRING_OPERATORS)[number]
  | (typeof DATE_OPERATORS)[number]
  | 'in'
  | 'not-in'
  | 'between'
  | 'not-between'
  | 'null'
  | 'not-null'
  | Period
  | RelativeOperator
  | CurrentOperator;

export const RELATIVE_OPERATORS: readonly RelativeOperator[] = (
  ['last', 'next', 'olderthan'] as const
).flatMap((when) => RELATIVE_UNITS.map((unit) => `${when}-x-${unit}` as const));

/** What the `value` key holds for each operator. */
export type ValueShape = 'scalar' | 'string' | 'date' | 'list' | 'pair' | 'none' | 'count';

export function valueShape(operator: Operator): ValueShape | undefined {
  return VALUE_SHAPES.get(operator);
}

const VALUE_SHAPES = new Map<string, ValueShape>([
  ...COMPARISONS.map((op) => [op, 'scalar'] as const),
  ...STRING_OPERATORS.map((op) => [op, 'string'] as const),
  ...DATE_OPERATORS.map((op) => [op, 'date'] as const),
  ['in', 'list'],
  ['not-in', 'list'],
  ['between', 'pair'],
  ['not-between', 'pair'],
  ['null', 'none'],
  ['not-null', 'none'],
  ...PERIODS.map((op) => [op, 'none'] as const),
  ...CURRENT_OPERATORS.map((op) => [op, 'none'] as const),
  ...RELATIVE_OPERATORS.map((op) => [op, 'count'] as const),
]);
