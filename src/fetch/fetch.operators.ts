import { CurrentOperator, Operator, RelativeUnit } from './fetch.tree';

/** Comparison symbols; `!=` reads as `ne` and is printed as `<>`. */
export const COMPARISON_SYMBOLS: ReadonlyMap<string, 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'> =
  new Map([
    ['=', 'eq'],
    ['<>', 'ne'],
    ['!=', 'ne'],
    ['<', 'lt'],
    ['<=', 'le'],
    ['>', 'gt'],
    ['>=', 'ge'],
  ] as const);

/** `CURRENT_USER` and friends turn `=` / `<>` into an operator of their own. */
export const CURRENT_VALUES: ReadonlyMap<string, 'userid' | 'businessid' | 'organizationid'> =
  new Map([
    ['CURRENT_USER', 'userid'],
    ['CURRENT_BUSINESS_UNIT', 'businessid'],
    ['CURRENT_ORGANIZATION', 'organizationid'],
  ] as const);

/** Singular units are accepted too (`IS LAST 1 DAY`); the printer writes plurals. */
export const UNIT_WORDS: ReadonlyMap<string, RelativeUnit> = new Map(
  (['minutes', 'hours', 'days', 'weeks', 'months', 'years'] as const).flatMap((unit) => [
    [unit.toUpperCase(), unit] as const,
    [unit.slice(0, -1).toUpperCase(), unit] as const,
  ]),
);

/** The words between the column and the value (FETCH.md §1); `n` for the `-x-` operators. */
export function operatorText(operator: Operator, n?: number): string {
  const fixed = FIXED_TEXT.get(operator);
  if (fixed) return fixed;
  if (operator.includes('-x-')) {
    const [when, , unit] = operator.split('-');
    return `IS ${when === 'olderthan' ? 'OLDER THAN' : when.toUpperCase()} ${n} ${unit.toUpperCase()}`;
  }
  // the fixed periods: today, this-week, last-month …
  return `IS ${operator.replace('-', ' ').toUpperCase()}`;
}

export function currentValueWord(operator: CurrentOperator): string {
  const suffix = operator.slice(3);
  return [...CURRENT_VALUES].find(([, value]) => value === suffix)![0];
}

const FIXED_TEXT = new Map<string, string>([
  ['eq', '='],
  ['ne', '<>'],
  ['lt', '<'],
  ['le', '<='],
  ['gt', '>'],
  ['ge', '>='],
  ['like', 'LIKE'],
  ['not-like', 'NOT LIKE'],
  ['in', 'IN'],
  ['not-in', 'NOT IN'],
  ['between', 'BETWEEN'],
  ['not-between', 'NOT BETWEEN'],
  ['null', 'IS NULL'],
  ['not-null', 'IS NOT NULL'],
  ['begins-with', 'BEGINS WITH'],
  ['ends-with', 'ENDS WITH'],
  ['contains', 'CONTAINS'],
  ['on', 'ON'],
  ['on-or-after', 'ON OR AFTER'],
  ['on-or-before', 'ON OR BEFORE'],
  ['eq-userid', '='],
  ['eq-businessid', '='],
  ['eq-organizationid', '='],
  ['ne-userid', '<>'],
  ['ne-businessid', '<>'],
  ['ne-organizationid', '<>'],
]);
