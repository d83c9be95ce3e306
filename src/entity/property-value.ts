import { PropertyDefinition } from './entity-type';

const DECIMAL = /^-?\d+(\.\d+)?$/;
const INTEGER_TEXT = /^-?\d+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
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
      return typeof value === 'string' && DATETIME.test(value) && !Number.isNaN(Date.parse(value))
        ? { value }
        : { problem: 'expected an ISO 8601 date-time with an offset, e.g. 2026-01-31T12:00:00Z' };
    case 'date':
      return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value))
        ? { value }
        : { problem: 'expected a date YYYY-MM-DD' };
    case 'uuid':
      return typeof value === 'string' && UUID.test(value)
        ? { value }
        : { problem: 'expected a UUID' };
    case 'json':
      return { value: JSON.stringify(value) };
  }
}

function coerceBigint(value: unknown): Coerced {
  if (Number.isSafeInteger(value)) return { value };
  if (typeof value === 'string' && INTEGER_TEXT.test(value)) {
    const big = BigInt(value);
    if (big <= INT8_MAX && big >= -INT8_MAX - 1n) return { value };
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
