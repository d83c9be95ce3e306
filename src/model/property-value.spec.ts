import { PropertyDefinition } from './entity-type';
import { coerceValue } from './property-value';

const property = (overrides: Partial<PropertyDefinition>): PropertyDefinition => ({
  name: 'p',
  label: 'P',
  type: 'string',
  castType: 'text',
  nullable: false,
  required: false,
  origin: 'client',
  hidden: false,
  secured: false,
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
    expect(coerceValue(bigint, '42')).toEqual({ value: 42 });
    expect(coerceValue(bigint, '9007199254740993')).toEqual({ value: '9007199254740993' });
    expect(coerceValue(bigint, '9223372036854775808')).toHaveProperty('problem');
  });

  it('wants date-times with an offset, kept to the millisecond as they are read back', () => {
    const datetime = property({ type: 'datetime' });
    expect(coerceValue(datetime, '2026-01-31T12:00:00+02:00')).toEqual({
      value: '2026-01-31T10:00:00.000Z',
    });
    expect(coerceValue(datetime, '2026-01-31T12:00:00.123456Z')).toEqual({
      value: '2026-01-31T12:00:00.123Z',
    });
    expect(coerceValue(datetime, '2026-01-31T12:00:00')).toHaveProperty('problem');
    expect(coerceValue(datetime, '2026-01-31T24:00:00Z')).toHaveProperty('problem');
    expect(coerceValue(datetime, '2026-01-31T12:00:00+16:00')).toHaveProperty('problem');
  });

  it('wants real calendar days, which Date.parse would roll over', () => {
    const datetime = property({ type: 'datetime' });
    const date = property({ type: 'date' });
    expect(coerceValue(datetime, '2026-02-30T00:00:00Z')).toHaveProperty('problem');
    expect(coerceValue(date, '2026-02-29')).toHaveProperty('problem');
    expect(coerceValue(date, '2028-02-29')).toEqual({ value: '2028-02-29' });
    expect(coerceValue(date, '1900-02-29')).toHaveProperty('problem');
    expect(coerceValue(date, '2000-02-29')).toEqual({ value: '2000-02-29' });
    expect(coerceValue(date, '2026-13-01')).toHaveProperty('problem');
    expect(coerceValue(date, '0000-01-01')).toHaveProperty('problem');
    expect(coerceValue(date, '2026-02-30x')).toHaveProperty('problem');
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
