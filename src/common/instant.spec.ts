import { parseInstant } from './instant';

describe('parseInstant', () => {
  it.each([
    ['2026-11-26', '2026-11-26T00:00:00.000Z'],
    ['2026-11-26T10:20:30Z', '2026-11-26T10:20:30.000Z'],
    ['2026-11-26T10:20:30.123+02:00', '2026-11-26T08:20:30.123Z'],
    ['2026-11-26T10:20-0130', '2026-11-26T11:50:00.000Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseInstant(text)?.toISOString()).toBe(iso);
  });

  it.each([
    'yesterday',
    '2026-11-26T10:20:30', // no offset: which instant?
    '2026-13-01',
    '2026-02-30T00:00Z',
    '1764150000',
    ' 2026-11-26',
    '2026-11-26T24:00Z',
  ])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});
