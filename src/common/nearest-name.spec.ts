import { distance } from 'fastest-levenshtein';
import { nearestName } from './nearest-name';

// The edit distance, counted: the work a lookup does, whatever the machine's speed.
jest.mock('fastest-levenshtein', () => {
  const actual = jest.requireActual<typeof import('fastest-levenshtein')>('fastest-levenshtein');
  return { ...actual, distance: jest.fn(actual.distance) };
});

describe('nearestName', () => {
  it('finds the nearest candidate within the distance', () => {
    expect(nearestName('id_acount', ['name', 'id_account', 'id_contact'])).toBe('id_account');
    expect(nearestName('nmae', ['name', 'email'])).toBe('name');
  });

  it('finds none beyond the distance, and never the name itself', () => {
    expect(nearestName('colour', ['name', 'email'])).toBeUndefined();
    expect(nearestName('name', ['name'])).toBeUndefined();
    expect(nearestName('LIMT', ['LIMIT', 'OFFSET'], 1)).toBe('LIMIT');
  });

  it('stays fast for a huge name against a huge list: it compares names of about its length only', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `column_${i}`);
    const compared = jest.mocked(distance);
    /** The cells of the edit-distance tables filled: what a comparison costs. */
    const cells = () => compared.mock.calls.reduce((sum, [a, b]) => sum + a.length * b.length, 0);

    compared.mockClear();
    expect(nearestName('z'.repeat(60_000), names)).toBeUndefined();
    expect(compared).not.toHaveBeenCalled(); // no candidate is within 2 of its length

    compared.mockClear();
    expect(nearestName('x'.repeat(9), names)).toBeUndefined();
    // Each candidate compared at most once, none longer than the name and the distance.
    expect(compared.mock.calls.length).toBeLessThanOrEqual(names.length);
    expect(cells()).toBeLessThanOrEqual(names.length * 9 * (9 + 2));
  });
});
