import { rangeOf } from './storage.http';

describe('rangeOf', () => {
  it.each([
    ['bytes=0-9', { start: 0, end: 9 }],
    ['bytes=-3', { start: 17, end: 19 }],
    ['bytes=-20', { start: 0, end: 19 }],
    ['bytes=-21', { start: 0, end: 19 }],
    ['bytes=-99999999999999999999', { start: 0, end: 19 }],
    ['bytes=15-', { start: 15, end: 19 }],
    ['bytes=15-500', { start: 15, end: 19 }],
  ])('reads %s of a 20-byte file', (header, range) => {
    expect(rangeOf(header, 20)).toEqual(range);
  });

  it.each([
    ['bytes=40-50', 20],
    ['bytes=-0', 20],
    ['bytes=-5', 0],
  ])('calls %s of a %d-byte file unsatisfiable', (header, size) => {
    expect(rangeOf(header, size)).toBe('unsatisfiable');
  });

  it('answers several ranges or a malformed header with the whole file', () => {
    expect(rangeOf('bytes=0-1,5-6', 20)).toBeUndefined();
    expect(rangeOf('bytes=abc', 20)).toBeUndefined();
    expect(rangeOf(undefined, 20)).toBeUndefined();
  });
});
