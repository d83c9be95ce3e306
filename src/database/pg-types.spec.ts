import { parseInt8 } from './pg-types';

describe('parseInt8', () => {
  it('returns safe integers as numbers', () => {
    expect(parseInt8('42')).toBe(42);
    expect(parseInt8('-9007199254740991')).toBe(-9007199254740991);
  });

  it('keeps integers beyond 2^53 exact, as strings', () => {
    expect(parseInt8('9007199254740993')).toBe('9007199254740993');
  });
});
