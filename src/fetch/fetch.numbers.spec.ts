import { formatNumber, literalValue } from './fetch.numbers';

describe('literalValue', () => {
  it.each([
    ['0', 0],
    ['-0', 0],
    ['-0.000', 0],
    ['007', 7],
    ['2.50', 2.5],
    ['-12.75', -12.75],
    ['0.30000000000000004', 0.30000000000000004],
    ['9007199254740991', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
  ])('reads %s as the number %d', (literal, value) => {
    expect(literalValue(literal)).toBe(value);
  });

  it.each([
    ['9007199254740992', '9007199254740992'],
    ['-12345678901234567890', '-12345678901234567890'],
    ['0.1000000000000000000001', '0.1000000000000000000001'],
    ['00012345678901234567890.500', '12345678901234567890.5'],
  ])('keeps %s, which a double would round, as the string %s', (literal, value) => {
    expect(literalValue(literal)).toBe(value);
  });
});

describe('formatNumber', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [42, '42'],
    [-2.5, '-2.5'],
    [1e-7, '0.0000001'],
    [-1.25e-10, '-0.000000000125'],
    [1.5e21, '1500000000000000000000.0'],
    [2 ** 53, '9007199254740992.0'],
  ])('writes %d as %s', (value, text) => {
    expect(formatNumber(value)).toBe(text);
  });

  it('writes what literalValue reads back to the same number', () => {
    for (const value of [
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      -Number.MAX_SAFE_INTEGER,
      0.1,
      1 / 3,
    ]) {
      expect(literalValue(formatNumber(value))).toBe(value);
    }
  });
});
