import { pgJson } from '../database/pg-json';
import { PropertyDefinition } from './entity-type';

/** A decimal as text, as the API reads and writes it. */
export const DECIMAL = /^-?\d+(\.\d+)?$/;
const INTEGER_TEXT = /^-?\d+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?(Z|[+-](0\d|1[0-5]):[0-5]\d)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT4_MAX = 2 ** 31 - 1;
const INT8_MAX = 2n ** 63n - 1n;

/** Why a value does not fit a property, or undefined when it does. */
export type Coerced = { value: unknown } | { problem: string };

/**
 * Checks a JSON value against a property's type and returns the value to bind: decimals
 * and big integers stay exact strings, date-times must carry an offset.
 */
export function coerceValue(property: PropertyDefinition, value: unknown): Coerced {
  if (value === null) return property.nullable ? { value: null } : { problem: 'must not be null' };
  switch (property.type) {
    case 'string':
      if (typeof value !== 'string') return { problem: 'expected a string' };
      if (property.values && !property.values.includes(value)) {
        return { problem: `must be one of ${property.values.join(', ')}` };
      }
      if (property.length && value.length > property.length) {
        return { problem: `is longer than ${property.length} characters` };
      }
      return { value };
    case 'integer':
      return Number.isInteger(value) && Math.abs(value as number) <= INT4_MAX
        ? { value }
        : { problem: 'expected an integer' };
    case 'bigint':
      return coerceBigint(value);
    case 'decimal':
      return coerceDecimal(property, value);
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { problem: 'expected true or false' };
    case 'datetime':
      return typeof value === 'string' && isCalendarDay(DATETIME.exec(value))
        ? // Kept to the millisecond, as it is read back: what is stored is what is read.
          { value: new Date(value).toISOString() }
        : { problem: 'expected an ISO 8601 date-time with an offset, e.g. 2026-01-31T12:00:00Z' };
    case 'date':
      return typeof value === 'string' && isCalendarDay(DATE.exec(value))
        ? { value }
        : { problem: 'expected a date YYYY-MM-DD' };
    case 'uuid':
      return typeof value === 'string' && UUID.test(value)
        ? { value }
        : { problem: 'expected a UUID' };
    case 'json':
      return { value: pgJson(value) };
  }
}

/** A real day of the Gregorian calendar (Date.parse rolls 2026-02-30 over to March). */
function isCalendarDay(match: RegExpExecArray | null): boolean {
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return year >= 1 && days !== undefined && day >= 1 && day <= days;
}

/** Integers as numbers, as keys leave the API; beyond 2^53 they stay exact strings. */
function coerceBigint(value: unknown): Coerced {
  if (Number.isSafeInteger(value)) return { value };
  if (typeof value === 'string' && INTEGER_TEXT.test(value)) {
    const big = BigInt(value);
    if (big <= INT8_MAX && big >= -INT8_MAX - 1n) {
      return { value: Number.isSafeInteger(Number(value)) ? Number(value) : value };
    }
  }
  return { problem: 'expected an integer' };
}

function coerceDecimal(property: PropertyDefinition, value: unknown): Coerced {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !DECIMAL.test(text)) {
    return { problem: 'expected a decimal number, e.g. "12.50"' };
  }
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  const { precision, scale = 0 } = property;
  if (precision !== undefined && whole.replace(/^0+/, '').length > precision - scale) {
    return { problem: `has more than ${precision - scale} digits before the decimal point` };
  }
  if (precision !== undefined && fraction.length > scale) {
    return { problem: `has more than ${scale} decimal places` };
  }
  return { value: text };
}
