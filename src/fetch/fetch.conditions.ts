import { TokenCursor } from './fetch.cursor';
import { literalValue } from './fetch.numbers';
import { COMPARISON_SYMBOLS, CURRENT_VALUES, UNIT_WORDS } from './fetch.operators';
import { Condition, Operator, Scalar } from './fetch.tree';

const OPERATOR_EXPECTED =
  'an operator (=, <>, <, <=, >, >=, LIKE, NOT, IN, BETWEEN, IS, BEGINS, ENDS, CONTAINS, ON)';

/** One `condition` of FETCH.md §1: a column, an operator and its value(s). */
export function parseCondition(t: TokenCursor): Condition {
  const property = t.column();
  const { kind, text, upper } = t.token;
  const comparison = kind === 'symbol' ? COMPARISON_SYMBOLS.get(text) : undefined;
  if (comparison) {
    t.advance();
    return compare(t, property, comparison);
  }
  t.expect(OPERATOR_EXPECTED);
  if (kind !== 'ident') return t.fail();
  switch (upper) {
    case 'NOT':
      t.advance();
      return negated(t, property);
    case 'LIKE':
      t.advance();
      return { property, operator: 'like', value: string(t) };
    case 'IN':
      t.advance();
      return { property, operator: 'in', value: list(t) };
    case 'BETWEEN':
      t.advance();
      return { property, operator: 'between', value: pair(t) };
    case 'IS':
      t.advance();
      return is(t, property);
    case 'BEGINS':
    case 'ENDS':
    case 'CONTAINS': {
      t.advance();
      t.acceptKeyword('WITH');
      const operator =
        upper === 'CONTAINS' ? 'contains' : upper === 'BEGINS' ? 'begins-with' : 'ends-with';
      return { property, operator, value: string(t) };
    }
    case 'ON':
      t.advance();
      return on(t, property);
  }
  return t.fail();
}

function compare(t: TokenCursor, property: string, operator: Operator): Condition {
  const current = t.token.kind === 'ident' ? CURRENT_VALUES.get(t.token.upper) : undefined;
  if (!current) return { property, operator, value: scalar(t) };
  if (operator !== 'eq' && operator !== 'ne') throw onlyEquality(t);
  t.advance();
  return { property, operator: `${operator}-${current}` };
}

function negated(t: TokenCursor, property: string): Condition {
  if (t.acceptKeyword('LIKE')) return { property, operator: 'not-like', value: string(t) };
  if (t.acceptKeyword('IN')) return { property, operator: 'not-in', value: list(t) };
  if (t.acceptKeyword('BETWEEN')) return { property, operator: 'not-between', value: pair(t) };
  return t.fail();
}

function is(t: TokenCursor, property: string): Condition {
  if (t.acceptKeyword('NOT')) {
    t.keyword('NULL');
    return { property, operator: 'not-null' };
  }
  if (t.acceptKeyword('NULL')) return { property, operator: 'null' };
  for (const day of ['TODAY', 'YESTERDAY', 'TOMORROW'] as const) {
    if (t.acceptKeyword(day)) return { property, operator: day.toLowerCase() as Operator };
  }
  if (t.acceptKeyword('THIS')) return { property, operator: `this-${period(t)}` };
  for (const when of ['LAST', 'NEXT'] as const) {
    if (!t.acceptKeyword(when)) continue;
    const lower = when === 'LAST' ? 'last' : 'next';
    if (t.token.kind === 'number') return relative(t, property, lower);
    t.expect('a non-negative integer');
    return { property, operator: `${lower}-${period(t)}` };
  }
  if (t.acceptKeyword('OLDER', 'OLDER THAN')) {
    t.keyword('THAN');
    return relative(t, property, 'olderthan');
  }
  return t.fail();
}

function period(t: TokenCursor): 'week' | 'month' | 'year' {
  for (const unit of ['WEEK', 'MONTH', 'YEAR'] as const) {
    if (t.acceptKeyword(unit))
      return unit === 'WEEK' ? 'week' : unit === 'MONTH' ? 'month' : 'year';
  }
  return t.fail();
}

function relative(
  t: TokenCursor,
  property: string,
  when: 'last' | 'next' | 'olderthan',
): Condition {
  const value = t.integer();
  const unit = t.token.kind === 'ident' ? UNIT_WORDS.get(t.token.upper) : undefined;
  if (!unit) {
    t.expect('a unit (MINUTES, HOURS, DAYS, WEEKS, MONTHS, YEARS)');
    return t.fail();
  }
  t.advance();
  return { property, operator: `${when}-x-${unit}`, value };
}

function on(t: TokenCursor, property: string): Condition {
  let operator: Operator = 'on';
  if (t.acceptKeyword('OR')) {
    if (t.acceptKeyword('AFTER')) operator = 'on-or-after';
    else if (t.acceptKeyword('BEFORE')) operator = 'on-or-before';
    else t.fail();
  }
  return { property, operator, value: date(t) };
}

function scalar(t: TokenCursor): Scalar {
  const token = t.token;
  if (token.kind === 'string') return t.advance().value;
  if (token.kind === 'number') return literalValue(t.advance().text);
  if (token.kind === 'ident') {
    if (token.upper === 'TRUE' || token.upper === 'FALSE' || token.upper === 'NULL') {
      t.advance();
      return token.upper === 'NULL' ? null : token.upper === 'TRUE';
    }
    if (CURRENT_VALUES.has(token.upper)) throw onlyEquality(t);
  }
  t.expect('a value');
  return t.fail();
}

function string(t: TokenCursor): string {
  if (t.token.kind === 'string') return t.advance().value;
  t.expect('a string');
  return t.fail();
}

/** ON takes a calendar date; anything else would only fail later, in the database. */
function date(t: TokenCursor): string {
  const token = t.token;
  if (token.kind !== 'string') {
    t.expect("a date 'YYYY-MM-DD'");
    return t.fail();
  }
  if (!isDate(token.value)) {
    throw t.error(token.start, `expected a date 'YYYY-MM-DD' but found ${token.text}`);
  }
  return t.advance().value;
}

export function isDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

function list(t: TokenCursor): Scalar[] {
  t.symbol('(');
  const values = [scalar(t)];
  while (t.acceptSymbol(',')) values.push(scalar(t));
  t.symbol(')');
  return values;
}

function pair(t: TokenCursor): Scalar[] {
  const low = scalar(t);
  t.keyword('AND');
  return [low, scalar(t)];
}

function onlyEquality(t: TokenCursor) {
  return t.error(t.token.start, `${t.token.text} can only be compared with = or <>`);
}
