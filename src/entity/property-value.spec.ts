import { PropertyDefinition } from './entity-type';
import { coerceValue } from './property-value';

const property = (overrides: Partial<PropertyDefinition>): PropertyDefinition => ({
  name: 'p',
  type: 'string',
  nullable: false,
  required: false,
  origin: 'client',
  hidden: false,
  ...overrides,
});

describe('coerceValue', () => {
  it('keeps decimals exact as strings and checks precision and scale', () => {
    const decimal = property({ type: 'decimal', precision: 6, scale: 2 });
    expect(coerceValue(decimal, '1234.50')).toEqual({ value: '1234.50' });
    expect(coerceValue(decimal, 12.5)).toEqual({ value: '12.5' });
    expect(coerceValue(decimal, '12345.00')).toEqual({
      problem: expect.stringMatching(/4 digits before/),
    });
    expect(coerceValue(decimal, '1.005')).toEqual({
      problem: expect.stringMatching(/2 decimal places/),
    });
    expect(coerceValue(decimal, '1e3')).toEqual({ problem: expect.stringMatching(/decimal/) });
  });

  it('accepts integers in range only', () => {
    const integer = property({ type: 'integer' });
    expect(coerceValue(integer, 7)).toEqual({ value: 7 });
    expect(coerceValue(integer, 7.5)).toHaveProperty('problem');
    expect(coerceValue(integer, '7')).toHaveProperty('problem');
    expect(coerceValue(integer, 2 ** 31)).toHaveProperty('problem');
  });

  it('takes big integers as numbers or exact strings', () => {
    const bigint = property({ type: 'bigint' });
    expect(coerceValue(bigint, 42)).toEqual({ value: 42 });
    expect(coerceValue(bigint, '9007199254740993')).toEqual({ value: '9007199254740993' });
    expect(coerceValue(bigint, '9223372036854775808')).toHaveProperty('problem');
  });

  it('wants date-times with an offset and real calendar dates', () => {
    const datetime = property({ type: 'datetime' });
    expect(coerceValue(datetime, '2026-01-31T12:00:00+02:00')).toEqual({
      value: '2026-01-31T12:00:00+02:00',
    });
    expect(coerceValue(datetime, '2026-01-31T12:00:00')).toHaveProperty('problem');
    expect(coerceValue(property({ type: 'date' }), '2026-02-30x')).toHaveProperty('problem');
  });

  it('checks nulls, lengths and enum values', () => {
    expect(coerceValue(property({}), null)).toEqual({ problem: 'must not be null' });
    expect(coerceValue(property({ nullable: true }), null)).toEqual({ value: null });
    expect(coerceValue(property({ length: 3 }), 'abcd')).toHaveProperty('problem');
    expect(coerceValue(property({ values: ['a', 'b'] }), 'c')).toEqual({
      problem: 'must be one of a, b',
    });
  });
});
