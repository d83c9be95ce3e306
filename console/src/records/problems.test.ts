import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import { INVOICE } from './fixtures.test-data';
import { problemsOf } from './problems';

const refused = (status: number, body: Record<string, unknown>) =>
  problemsOf(new ApiError(status, body as ApiError['body']), INVOICE, {
    entity_name: 'invoice',
    properties: { number: 'INV-1', id_account: 3 },
  });

describe('where a refused save is shown', () => {
  it('puts a 424 of a child on its row and column', () => {
    expect(
      refused(424, {
        eventName: 'onBeforeInsert',
        entityName: 'invoice',
        propertyName: 'invoice_invoice_line',
        childEntityName: 'invoice_line',
        childPropertyName: 'quantity',
        childEntityIndex: 1,
        detail: 'The quantity must be greater than 0',
      }),
    ).toEqual({
      fields: {},
      rows: { invoice_invoice_line: { 1: { quantity: 'The quantity must be greater than 0' } } },
    });
  });

  it('puts a 424 of the record on its field, or on the form when it names none', () => {
    const field = refused(424, { propertyName: 'status', detail: 'Only drafts' });
    expect(field.fields).toEqual({ status: 'Only drafts' });
    const whole = refused(424, { entityName: 'invoice', detail: 'Has invoices' });
    expect(whole).toEqual({ fields: {}, rows: {}, form: 'Has invoices' });
  });

  it('puts a 400 on the property or the child row its path names', () => {
    expect(refused(400, { detail: 'invoice.id_account: no account with key 9' }).fields).toEqual({
      id_account: 'no account with key 9',
    });
    expect(
      refused(400, { detail: 'invoice_invoice_line[0].unit_price: is required' }).rows,
    ).toEqual({ invoice_invoice_line: { 0: { unit_price: 'is required' } } });
  });

  it('names the taken value of a 409 on its field', () => {
    expect(
      refused(409, { detail: 'invoice.number: another invoice already has this number' }).fields,
    ).toEqual({ number: '"INV-1" is taken: another invoice already has this number' });
  });

  it('calls a 412 stale', () => {
    expect(refused(412, { detail: 'invoice 7 has changed since it was read (If-Match)' })).toEqual({
      fields: {},
      rows: {},
      stale: true,
      form: 'invoice 7 has changed since it was read (If-Match)',
    });
  });

  it('says anything else on the form', () => {
    expect(refused(403, { detail: 'You may not change invoice 7' })).toEqual({
      fields: {},
      rows: {},
      form: 'You may not change invoice 7',
    });
    expect(refused(400, { detail: 'product.code: is required' }).form).toBe(
      'product.code: is required',
    );
  });
});
