import request from 'supertest';
import { apiKeyUser, createTestApp, TestApp } from './helpers/test-app';

const LINES = 'invoice_invoice_line';

describe('entity hooks (424)', () => {
  let t: TestApp;
  let key: string;
  let accountKey: number;

  const post = (path: string, body: object) =>
    request(t.http).post(path).set('X-API-Key', key).send(body);
  const line = (quantity: number) => ({ properties: { quantity, unit_price: '2.00' } });
  const countInvoices = async () =>
    Number(
      (
        await t.dataSource.query(`SELECT count(*) AS n FROM invoice WHERE id_account = $1`, [
          accountKey,
        ])
      )[0].n,
    );

  beforeAll(async () => {
    t = await createTestApp();
    ({ key } = await apiKeyUser(t));
    accountKey = (
      await post('/rest/entity/account', { properties: { name: 'Hooks SA' } }).expect(200)
    ).body.key;
  });
  afterAll(() => t.close());

  it('fails a create whose 2nd line has quantity 0 with the 2.4 record, leaving no row', async () => {
    const before = await countInvoices();
    const { body } = await post('/rest/entity/invoice', {
      properties: { id_account: accountKey },
      children: { [LINES]: [line(1), line(0), line(2)] },
    }).expect(424);
    expect(body).toEqual({
      eventName: 'onBeforeInsert',
      entityName: 'invoice',
      propertyName: LINES,
      childEntityName: 'invoice_line',
      childPropertyName: 'quantity',
      childEntityIndex: 1,
      detail: 'The quantity must be greater than 0',
    });
    expect(await countInvoices()).toBe(before);
  });

  it('reports a line rule on update as onBeforeUpdate, and changes nothing', async () => {
    const invoiceKey = (
      await post('/rest/entity/invoice', {
        properties: { id_account: accountKey },
        children: { [LINES]: [line(1)] },
      }).expect(200)
    ).body.key;
    const { body } = await post(`/rest/entity/invoice/${invoiceKey}`, {
      properties: { currency: 'USD' },
      children: { [LINES]: [line(3), line(-1)] },
    }).expect(424);
    expect(body).toMatchObject({
      eventName: 'onBeforeUpdate',
      childEntityIndex: 1,
      childPropertyName: 'quantity',
    });
    const stored = await request(t.http)
      .get(`/rest/entity/invoice/${invoiceKey}`)
      .set('X-API-Key', key);
    expect(stored.body.properties.currency).toBeNull();
    expect(stored.body.children[LINES]).toHaveLength(1);
  });

  it('lets only a draft invoice be updated or deleted', async () => {
    const invoiceKey = (
      await post('/rest/entity/invoice', {
        properties: { id_account: accountKey },
        children: { [LINES]: [line(1)] },
      }).expect(200)
    ).body.key;
    await post('/rest/workflow/invoicing/issue', { invoiceKey }).expect(200);
    const update = await post(`/rest/entity/invoice/${invoiceKey}`, {
      properties: { currency: 'EUR' },
    }).expect(424);
    expect(update.body).toMatchObject({
      eventName: 'onBeforeUpdate',
      entityName: 'invoice',
      propertyName: 'status',
    });
    const deletion = await request(t.http)
      .delete(`/rest/entity/invoice/${invoiceKey}`)
      .set('X-API-Key', key)
      .expect(424);
    expect(deletion.body).toMatchObject({ eventName: 'onBeforeDelete', entityName: 'invoice' });
    expect(deletion.body.detail).toMatch(/draft/);
  });

  describe('an invoice status moves through the workflow', () => {
    it("starts a user's invoice as a draft: another status is a 424 and nothing is stored", async () => {
      const before = await countInvoices();
      for (const status of ['paid', 'issued', 'cancelled']) {
        const { body } = await post('/rest/entity/invoice', {
          properties: { id_account: accountKey, status },
          children: { [LINES]: [line(1)] },
        }).expect(424);
        expect(body).toMatchObject({
          eventName: 'onBeforeInsert',
          entityName: 'invoice',
          propertyName: 'status',
          detail: expect.stringMatching(/draft.*workflow/),
        });
      }
      expect(await countInvoices()).toBe(before);
      await post('/rest/entity/invoice', {
        properties: { id_account: accountKey, status: 'draft' },
      }).expect(200);
      expect(await countInvoices()).toBe(before + 1);
    });

    it("refuses a user's update of the status, which the workflow then makes", async () => {
      const invoiceKey = (
        await post('/rest/entity/invoice', { properties: { id_account: accountKey } }).expect(200)
      ).body.key;
      const { body } = await post(`/rest/entity/invoice/${invoiceKey}`, {
        properties: { status: 'paid' },
      }).expect(424);
      expect(body).toMatchObject({ eventName: 'onBeforeUpdate', propertyName: 'status' });
      const issued = await post('/rest/workflow/invoicing/issue', { invoiceKey }).expect(200);
      expect(issued.body.status).toBe('issued');
    });

    it('lets an administrator import an invoice with its status', async () => {
      const admin = await apiKeyUser(t, { isAdmin: true });
      const { body } = await request(t.http)
        .post('/rest/entity/invoice')
        .set('X-API-Key', admin.key)
        .send({ properties: { id_account: accountKey, status: 'paid', number: `H-${Date.now()}` } })
        .expect(200);
      const stored = await request(t.http)
        .get(`/rest/entity/invoice/${body.key}`)
        .set('X-API-Key', admin.key)
        .expect(200);
      expect(stored.body.properties.status).toBe('paid');
    });
  });

  it('refuses to delete an account that has invoices, and deletes one without', async () => {
    const { body } = await request(t.http)
      .delete(`/rest/entity/account/${accountKey}`)
      .set('X-API-Key', key)
      .expect(424);
    expect(body).toMatchObject({ eventName: 'onBeforeDelete', entityName: 'account' });
    const lonely = (
      await post('/rest/entity/account', { properties: { name: 'Lonely' } }).expect(200)
    ).body.key;
    await request(t.http)
      .delete(`/rest/entity/account/${lonely}`)
      .set('X-API-Key', key)
      .expect(200);
  });

  it('rolls back everything when the write fails after the parent insert', async () => {
    const before = await countInvoices();
    const lines = Number((await t.dataSource.query(`SELECT count(*) AS n FROM invoice_line`))[0].n);
    // The two amounts cancel out in the total, so the invoice row is written; each
    // amount overflows numeric(14,2), so the lines' INSERT fails after it.
    const huge = '999999999999.99';
    const { body } = await post('/rest/entity/invoice', {
      properties: { id_account: accountKey },
      children: {
        [LINES]: [
          { properties: { quantity: 1000, unit_price: huge } },
          { properties: { quantity: 1000, unit_price: `-${huge}` } },
        ],
      },
    }).expect(400);
    expect(body.detail).toMatch(/out of range/);
    expect(await countInvoices()).toBe(before);
    expect(Number((await t.dataSource.query(`SELECT count(*) AS n FROM invoice_line`))[0].n)).toBe(
      lines,
    );
  });
});
