import { describe, expect, it } from 'vitest';
import type { Envelope } from '../api/entities';
import { INVOICE, LINE, TYPES } from './fixtures.test-data';
import {
  editorOf,
  envelopeOf,
  fromFieldValue,
  isoToLocal,
  RecordState,
  stateOf,
  toFieldValue,
} from './record-values';

const property = (name: string) =>
  [...INVOICE.properties, ...LINE.properties].find((p) => p.name === name)!;

const STORED: Envelope = {
  entity_name: 'invoice',
  properties: {
    key: 7,
    number: 'INV-7',
    id_account: 3,
    status: 'draft',
    issue_date: '2026-03-01T09:30:00.000Z',
    total: '12.50',
  },
  children: {
    invoice_invoice_line: [
      {
        entity_name: 'invoice_line',
        properties: { key: 70, id_product: 1, quantity: 1, unit_price: '10.00', amount: '10.00' },
      },
      {
        entity_name: 'invoice_line',
        properties: { key: 71, id_product: 2, quantity: 1, unit_price: '2.50', amount: '2.50' },
      },
    ],
  },
};

describe('fields', () => {
  it('edits each kind of property with its own input', () => {
    expect(
      ['number', 'id_account', 'status', 'issue_date', 'total', 'description', 'quantity'].map(
        (name) => editorOf(property(name)),
      ),
    ).toEqual(['text', 'lookup', 'enum', 'datetime', 'decimal', 'textarea', 'integer']);
  });

  it('keeps decimals exact, as text, and refuses more places than the column has', () => {
    const price = property('unit_price');
    expect(fromFieldValue(price, ' 12345678901234.99 ')).toEqual({ value: '12345678901234.99' });
    expect(fromFieldValue(price, '0.1')).toEqual({ value: '0.1' });
    expect(fromFieldValue(price, '1.005')).toEqual({ problem: 'At most 2 decimal places' });
    expect(fromFieldValue(price, '1e3')).toEqual({ problem: 'Expected a number such as 12.50' });
  });

  it('reads whole numbers, blanks as null', () => {
    const quantity = property('quantity');
    expect(fromFieldValue(quantity, '42')).toEqual({ value: 42 });
    expect(fromFieldValue(quantity, '')).toEqual({ value: null });
    expect(fromFieldValue(quantity, '4.2')).toEqual({ problem: 'Expected a whole number' });
  });

  it('shows a datetime in local time and sends back the same instant', () => {
    const local = isoToLocal('2026-03-01T09:30:00.000Z');
    expect(local).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
    expect(fromFieldValue(property('issue_date'), local)).toEqual({
      value: '2026-03-01T09:30:00.000Z',
    });
    expect(toFieldValue(property('issue_date'), null)).toBe('');
  });
});

describe('the envelope a save sends', () => {
  it('starts a new record with the database defaults and one without rows', () => {
    const state = stateOf(INVOICE, TYPES);
    expect(state.values).toEqual({
      number: '',
      id_account: null,
      status: 'draft',
      issue_date: '',
      total: '',
    });
    expect(state.children).toEqual({ invoice_invoice_line: [] });
  });

  it('creates with every field that has a value and every row, never computed ones', () => {
    const state = stateOf(INVOICE, TYPES);
    state.values = { ...state.values, id_account: 3, total: '99' };
    state.children = {
      invoice_invoice_line: [
        { values: { id_product: 1, description: '', quantity: '2', unit_price: '2.50' } },
      ],
    };
    expect(envelopeOf(INVOICE, TYPES, state, true)).toEqual({
      envelope: {
        entity_name: 'invoice',
        properties: { id_account: 3, status: 'draft' },
        children: {
          invoice_invoice_line: [
            {
              entity_name: 'invoice_line',
              properties: { id_product: 1, quantity: 2, unit_price: '2.50' },
            },
          ],
        },
      },
    });
  });

  it('updates only what changed, a cleared field as null, and leaves untouched groups out', () => {
    const state: RecordState = stateOf(INVOICE, TYPES, STORED);
    state.values = { ...state.values, number: '', status: 'issued' };
    expect(envelopeOf(INVOICE, TYPES, state, false)).toEqual({
      envelope: {
        entity_name: 'invoice',
        properties: { number: null, status: 'issued' },
        children: {},
      },
    });
  });

  it('sends a changed group whole: kept rows by key with their changes, new rows, not removed ones', () => {
    const state = stateOf(INVOICE, TYPES, STORED);
    const [first] = state.children.invoice_invoice_line;
    state.children = {
      invoice_invoice_line: [
        { key: first.key, values: { ...first.values, quantity: '3' } },
        { values: { id_product: 5, description: 'new', quantity: '1', unit_price: '1' } },
      ],
    };
    expect(envelopeOf(INVOICE, TYPES, state, false)).toMatchObject({
      envelope: {
        properties: {},
        children: {
          invoice_invoice_line: [
            { entity_name: 'invoice_line', properties: { key: 70, quantity: 3 } },
            {
              entity_name: 'invoice_line',
              properties: { id_product: 5, description: 'new', quantity: 1, unit_price: '1' },
            },
          ],
        },
      },
    });
  });

  it('finds wrong values before sending, on the field or the row and column', () => {
    const state = stateOf(INVOICE, TYPES, STORED);
    state.values = { ...state.values, issue_date: 'soon' };
    state.children = {
      invoice_invoice_line: [
        state.children.invoice_invoice_line[0],
        { values: { quantity: 'two', unit_price: '1' } },
      ],
    };
    expect(envelopeOf(INVOICE, TYPES, state, false)).toEqual({
      problems: {
        fields: { issue_date: 'Expected a date and time' },
        rows: { invoice_invoice_line: { 1: { quantity: 'Expected a whole number' } } },
      },
    });
  });
});
