import { describe, expect, it } from 'vitest';
import type { EntityTypeInfo } from '../api/entities';
import { INVOICE, TYPES } from './fixtures.test-data';
import {
  displayProperty,
  listQuery,
  lookupKeysOf,
  lookupLabelsQuery,
  lookupSearchQuery,
  visibleColumns,
} from './record-queries';
import { stateOf, TypeIndex } from './record-values';

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
const WITH_ACCOUNT: TypeIndex = new Map([...TYPES, [ACCOUNT.name, ACCOUNT]]);
/** The caller reads products, not accounts. */
const WITH_PRODUCT: TypeIndex = new Map([...TYPES, ['product', { ...ACCOUNT, name: 'product' }]]);

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
    expect(listQuery(ACCOUNT, WITH_ACCOUNT)).toBe(
      'FETCH account (key, name, country, tier, credit_limit) ORDER BY key DESC LIMIT 50',
    );
  });

  it('orders by the chosen column and direction', () => {
    expect(listQuery(ACCOUNT, WITH_ACCOUNT, { sort: { column: 'name', ascending: true } })).toMatch(
      / ORDER BY name ASC LIMIT 50$/,
    );
  });

  it('filters on the text columns that are not enums, with the text quoted', () => {
    expect(listQuery(ACCOUNT, WITH_ACCOUNT, { filter: " O'Brien " })).toContain(
      "WHERE name CONTAINS 'O''Brien' OR country CONTAINS 'O''Brien' ORDER BY",
    );
    expect(listQuery(ACCOUNT, WITH_ACCOUNT, { filter: '   ' })).not.toContain('WHERE');
  });

  it('names what each lookup points at through an outer link, and filters on that name too', () => {
    expect(listQuery(INVOICE, WITH_ACCOUNT, { filter: 'acme' })).toBe(
      'FETCH invoice (key, number, id_account, status, issue_date, total)' +
        ' { account AS id_account OUTER TO id_account (name) }' +
        " WHERE number CONTAINS 'acme' OR id_account.name CONTAINS 'acme'" +
        ' ORDER BY key DESC LIMIT 50',
    );
  });

  it('shows the bare key of a lookup whose type the caller may not read', () => {
    expect(listQuery(INVOICE, TYPES)).not.toContain('{');
  });
});

describe('lookups', () => {
  it('name a record by its name, else its first required text, else its key', () => {
    expect(displayProperty(ACCOUNT)).toBe('name');
    const product: EntityTypeInfo = {
      ...ACCOUNT,
      properties: [
        { name: 'label', label: 'Label', type: 'string', system: false },
        { name: 'code', label: 'Code', type: 'string', system: false, required: true },
      ],
    };
    expect(displayProperty(product)).toBe('code');
    expect(displayProperty({ ...ACCOUNT, properties: ACCOUNT.properties.slice(0, 2) })).toBe('key');
  });

  it('search the names containing the text typed, a few at a time', () => {
    expect(lookupSearchQuery(ACCOUNT, " O'B ")).toBe(
      "FETCH account (key, name AS label) WHERE name CONTAINS 'O''B' ORDER BY name ASC LIMIT 10",
    );
    expect(lookupSearchQuery(ACCOUNT, '')).toBe(
      'FETCH account (key, name AS label) ORDER BY name ASC LIMIT 10',
    );
  });

  it("read the names of a form's keys in one query", () => {
    expect(lookupLabelsQuery(ACCOUNT, [3, 5])).toBe(
      'FETCH account (key, name AS label) WHERE key IN (3, 5)',
    );
  });
});

describe("a form's lookups", () => {
  it('gathers the keys of the record and its rows by readable target, each once', () => {
    const state = stateOf(INVOICE, WITH_PRODUCT);
    state.values = { ...state.values, id_account: 3 };
    state.children = {
      invoice_invoice_line: [
        { values: { id_product: 5 } },
        { values: { id_product: 6 } },
        { values: { id_product: 5 } },
        { values: { id_product: null } },
      ],
    };
    expect(lookupKeysOf(INVOICE, WITH_PRODUCT, state)).toEqual(new Map([['product', [5, 6]]]));
  });
});
