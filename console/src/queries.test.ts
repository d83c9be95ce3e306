import { describe, expect, it } from 'vitest';
import type { EntityTypeInfo } from './api';
import { curlOf, fetchString, listQuery, offsetOf, toCsv, visibleColumns } from './queries';

const ACCOUNT: EntityTypeInfo = {
  name: 'account',
  label: 'Customer account',
  properties: [
    { name: 'key', label: 'Key', type: 'bigint', system: true },
    { name: 'date_created', label: 'Created', type: 'datetime', system: true },
    { name: 'name', label: 'Name', type: 'string', system: false },
    { name: 'country', label: 'Country', type: 'string', system: false },
    { name: 'tier', label: 'Tier', type: 'string', system: false, enum: ['gold', 'silver'] },
    { name: 'credit_limit', label: 'Credit limit', type: 'decimal', system: false },
    { name: 'secret', label: 'Secret', type: 'string', system: false, writeOnly: true },
  ],
};

describe('the list query', () => {
  it('shows the key and the own readable properties, not system or write-only ones', () => {
    expect(visibleColumns(ACCOUNT).map((p) => p.name)).toEqual([
      'key',
      'name',
      'country',
      'tier',
      'credit_limit',
    ]);
  });

  it('lists the newest first by default', () => {
    expect(listQuery(ACCOUNT)).toBe(
      'FETCH account (key, name, country, tier, credit_limit) ORDER BY key DESC LIMIT 50',
    );
  });

  it('orders by the chosen column and direction', () => {
    expect(listQuery(ACCOUNT, { sort: { column: 'name', ascending: true } })).toMatch(
      / ORDER BY name ASC LIMIT 50$/,
    );
  });

  it('filters on the text columns that are not enums, with the text quoted', () => {
    expect(listQuery(ACCOUNT, { filter: " O'Brien " })).toContain(
      "WHERE name CONTAINS 'O''Brien' OR country CONTAINS 'O''Brien' ORDER BY",
    );
    expect(listQuery(ACCOUNT, { filter: '   ' })).not.toContain('WHERE');
  });

  it('doubles quotes in string literals', () => {
    expect(fetchString("it's")).toBe("'it''s'");
  });
});

describe('the playground helpers', () => {
  it('turns the server line and column (code points, from 1) into a text offset', () => {
    const text = 'FETCH a\n  (😀 name';
    expect(offsetOf(text, 1, 1)).toBe(0);
    expect(offsetOf(text, 2, 3)).toBe(10);
    // The emoji is one column but two UTF-16 units.
    expect(offsetOf(text, 2, 6)).toBe(14);
    expect(text.slice(offsetOf(text, 2, 6))).toBe('name');
  });

  it('writes CSV with quotes only where a value needs them', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          { a: 'x, y', b: 'say "hi"' },
          { a: null, b: 2 },
        ],
      ),
    ).toBe('a,b\r\n"x, y","say ""hi"""\r\n,2');
  });

  it('writes curl with the query quoted for a shell', () => {
    expect(curlOf('http://h', "FETCH a (n) WHERE n = 'x'")).toBe(
      "curl -s http://h/rest/fetch -H 'X-API-Key: $ATRIUM_KEY' -H 'Content-Type: text/plain' " +
        "--data-binary 'FETCH a (n) WHERE n = '\\''x'\\'''",
    );
  });
});
