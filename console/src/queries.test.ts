import { describe, expect, it } from 'vitest';
import type { EntityTypeInfo } from './api';
import { fetchString, listQuery, visibleColumns } from './queries';

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
