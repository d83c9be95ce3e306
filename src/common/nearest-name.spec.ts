import { nearestName } from './nearest-name';

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

  it('stays fast for a huge name against a huge list', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `column_${i}`);
    const started = performance.now();
    expect(nearestName('z'.repeat(60_000), names)).toBeUndefined();
    expect(nearestName('x'.repeat(9), names)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(500);
  });
});
