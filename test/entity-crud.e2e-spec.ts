import request from 'supertest';
import { apiKeyUser, createTestApp, sessionOfNewUser, TestApp } from './helpers/test-app';

const LINES = 'invoice_invoice_line';

describe('/rest/entity CRUD', () => {
  let t: TestApp;
  let key: string;
  let accountKey: number;
  let productKey: number;

  const api = () => ({
    get: (path: string) => request(t.http).get(path).set('X-API-Key', key),
    post: (path: string, body: object) =>
      request(t.http).post(path).set('X-API-Key', key).send(body),
    delete: (path: string) => request(t.http).delete(path).set('X-API-Key', key),
  });
  const line = (quantity: number, unitPrice: string) => ({
    entity_name: 'invoice_line',
    properties: {
      id_product: productKey,
      quantity,
      unit_price: unitPrice,
      description: `q${quantity}`,
    },
  });
  const createInvoice = async (lines: object[], properties: object = {}) => {
    const { body } = await api()
      .post('/rest/entity/invoice', {
        entity_name: 'invoice',
        properties: { id_account: accountKey, currency: 'EUR', ...properties },
        children: { [LINES]: lines },
      })
      .expect(200);
    return body.key as number;
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ key } = await apiKeyUser(t));
    accountKey = (
      await api()
        .post('/rest/entity/account', { properties: { name: 'CRUD Ltd' } })
        .expect(200)
    ).body.key;
    productKey = (
      await api()
        .post('/rest/entity/product', { properties: { code: `C-${Date.now()}`, price: '9.99' } })
        .expect(200)
    ).body.key;
  });
  afterAll(() => t.close());

  it('creates an invoice with lines and reads it back equal, with system columns and computed values', async () => {
    const invoiceKey = await createInvoice([line(2, '10.50'), line(3, '0.10')], {
      issue_date: '2026-03-01T10:00:00+02:00',
    });
    const response = await api().get(`/rest/entity/invoice/${invoiceKey}`).expect(200);
    expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
    const { body } = response;
    expect(body.entity_name).toBe('invoice');
    expect(body.properties).toMatchObject({
      key: invoiceKey,
      id_account: accountKey,
      currency: 'EUR',
      status: 'draft',
      total: '21.30',
      number: null,
      extended: 0,
      issue_date: '2026-03-01T08:00:00.000Z',
    });
    for (const name of ['id_organization', 'id_business_unit', 'id_user']) {
      expect(typeof body.properties[name]).toBe('number');
    }
    expect(body.properties.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.properties.date_created).toMatch(/Z$/);
    const lines = body.children[LINES];
    expect(lines.map((l: { properties: object }) => l.properties)).toEqual([
      expect.objectContaining({
        quantity: 2,
        unit_price: '10.50',
        amount: '21.00',
        id_invoice: invoiceKey,
      }),
      expect.objectContaining({
        quantity: 3,
        unit_price: '0.10',
        amount: '0.30',
        id_invoice: invoiceKey,
      }),
    ]);
    expect(lines[0]).toEqual({
      entity_name: 'invoice_line',
      properties: expect.any(Object),
      children: {},
    });
  });

  it('reads every child group, empty ones included', async () => {
    const invoiceKey = await createInvoice([]);
    const { body } = await api().get(`/rest/entity/invoice/${invoiceKey}`).expect(200);
    expect(body.children).toEqual({ [LINES]: [] });
  });

  it('ignores system columns and computed properties sent by the client', async () => {
    const invoiceKey = await createInvoice([line(1, '5.00')], {
      total: '999.00',
      id_organization: 12345,
      extended: 7,
      date_created: '2001-01-01T00:00:00Z',
    });
    const { body } = await api().get(`/rest/entity/invoice/${invoiceKey}`).expect(200);
    expect(body.properties).toMatchObject({ total: '5.00', extended: 0 });
    expect(body.properties.id_organization).not.toBe(12345);
    expect(body.properties.date_created).not.toMatch(/^2001/);
  });

  it('updates partially: absent properties and absent child groups stay as they were', async () => {
    const invoiceKey = await createInvoice([line(1, '1.00')], { currency: 'RON' });
    await api()
      .post(`/rest/entity/invoice/${invoiceKey}`, {
        properties: { key: invoiceKey, number: `N-${invoiceKey}` },
      })
      .expect(200)
      .expect({ operation: 'update', key: invoiceKey });
    const { body } = await api().get(`/rest/entity/invoice/${invoiceKey}`).expect(200);
    expect(body.properties).toMatchObject({
      currency: 'RON',
      number: `N-${invoiceKey}`,
      total: '1.00',
    });
    expect(body.children[LINES]).toHaveLength(1);
  });

  it('replaces a present child group: keyed children updated, unkeyed inserted, missing deleted', async () => {
    const invoiceKey = await createInvoice([line(1, '1.00'), line(2, '1.00'), line(3, '1.00')]);
    const before = (await api().get(`/rest/entity/invoice/${invoiceKey}`)).body.children[LINES];
    const [first, , third] = before.map((l: { properties: { key: number } }) => l.properties.key);
    await api()
      .post(`/rest/entity/invoice/${invoiceKey}`, {
        properties: {},
        children: {
          [LINES]: [
            { properties: { key: first, quantity: 10 } },
            { properties: { key: third } },
            line(4, '2.50'),
          ],
        },
      })
      .expect(200);
    const { body } = await api().get(`/rest/entity/invoice/${invoiceKey}`).expect(200);
    const after = body.children[LINES].map(
      (l: { properties: Record<string, unknown> }) => l.properties,
    );
    expect(after.map((p: { key: number }) => p.key).slice(0, 2)).toEqual([first, third]);
    expect(after).toEqual([
      expect.objectContaining({ key: first, quantity: 10, amount: '10.00' }),
      expect.objectContaining({ key: third, quantity: 3, amount: '3.00' }),
      expect.objectContaining({ quantity: 4, amount: '10.00' }),
    ]);
    expect(body.properties.total).toBe('23.00');
  });

  it('refuses a key in the body that differs from the path (400), and a child key of another invoice', async () => {
    const invoiceKey = await createInvoice([line(1, '1.00')]);
    const otherKey = await createInvoice([line(1, '1.00')]);
    const { body } = await api()
      .post(`/rest/entity/invoice/${invoiceKey}`, { properties: { key: invoiceKey + 1 } })
      .expect(400);
    expect(body.detail).toMatch(/key/);
    const otherLine = (await api().get(`/rest/entity/invoice/${otherKey}`)).body.children[LINES][0]
      .properties.key;
    const refused = await api()
      .post(`/rest/entity/invoice/${invoiceKey}`, {
        children: { [LINES]: [{ properties: { key: otherLine } }] },
      })
      .expect(400);
    expect(refused.body.detail).toMatch(/not a child/);
  });

  it('takes keys sent as digit strings, as clients of 64-bit keys do', async () => {
    const invoiceKey = await createInvoice([line(1, '1.00')]);
    const lineKey = (await api().get(`/rest/entity/invoice/${invoiceKey}`)).body.children[LINES][0]
      .properties.key;
    await api()
      .post(`/rest/entity/invoice/${invoiceKey}`, {
        properties: { key: String(invoiceKey) },
        children: { [LINES]: [{ properties: { key: String(lineKey), quantity: 4 } }] },
      })
      .expect(200);
    const { body } = await api().get(`/rest/entity/invoice/${invoiceKey}`).expect(200);
    expect(body.children[LINES][0].properties).toMatchObject({ key: lineKey, quantity: 4 });
  });

  it('changes an enum property on update', async () => {
    const invoiceKey = await createInvoice([line(1, '1.00')]);
    // An administrator: the demo keeps other users' status changes for its workflow.
    const admin = await apiKeyUser(t, { isAdmin: true });
    await request(t.http)
      .post(`/rest/entity/invoice/${invoiceKey}`)
      .set('X-API-Key', admin.key)
      .send({ properties: { status: 'cancelled' } })
      .expect(200);
    const { body } = await api().get(`/rest/entity/invoice/${invoiceKey}`).expect(200);
    expect(body.properties.status).toBe('cancelled');
  });

  it('reads a date-time back as it was stored, to the millisecond', async () => {
    const invoiceKey = await createInvoice([], { issue_date: '2026-03-01T10:00:00.123456+02:00' });
    const { body } = await api().get(`/rest/entity/invoice/${invoiceKey}`).expect(200);
    expect(body.properties.issue_date).toBe('2026-03-01T08:00:00.123Z');
  });

  it('deletes an invoice and its lines', async () => {
    const invoiceKey = await createInvoice([line(1, '1.00'), line(1, '1.00')]);
    const { body } = await api().delete(`/rest/entity/invoice/${invoiceKey}`).expect(200);
    expect(body).toEqual({ operation: 'delete', key: invoiceKey });
    await api().get(`/rest/entity/invoice/${invoiceKey}`).expect(404);
    const rows = await t.dataSource.query(`SELECT 1 FROM invoice_line WHERE id_invoice = $1`, [
      invoiceKey,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('answers 412 to an update or delete with a stale If-Match, and accepts the current ETag', async () => {
    const invoiceKey = await createInvoice([line(1, '1.00')]);
    const etag = (await api().get(`/rest/entity/invoice/${invoiceKey}`)).headers.etag;
    await api()
      .post(`/rest/entity/invoice/${invoiceKey}`, { properties: { currency: 'USD' } })
      .expect(200);
    await api()
      .post(`/rest/entity/invoice/${invoiceKey}`, { properties: { currency: 'GBP' } })
      .set('If-Match', etag)
      .expect(412);
    await api().delete(`/rest/entity/invoice/${invoiceKey}`).set('If-Match', etag).expect(412);
    const fresh = (await api().get(`/rest/entity/invoice/${invoiceKey}`)).headers.etag;
    expect(fresh).not.toBe(etag);
    await api()
      .post(`/rest/entity/invoice/${invoiceKey}`, { properties: { currency: 'GBP' } })
      .set('If-Match', fresh)
      .expect(200);
  });

  it('answers 409 naming the property when a unique value is taken', async () => {
    const code = `DUP-${Date.now()}`;
    await api().post('/rest/entity/product', { properties: { code } }).expect(200);
    const { body } = await api().post('/rest/entity/product', { properties: { code } }).expect(409);
    expect(body.detail).toMatch(/code/);
    const number = `INV-DUP-${Date.now()}`;
    await createInvoice([], { number });
    const invoice = await api()
      .post('/rest/entity/invoice', { properties: { id_account: accountKey, number } })
      .expect(409);
    expect(invoice.body.detail).toMatch(/number/);
  });

  it.each([
    [{ properties: { name: 42 } }, /account\.name: expected a string/],
    [{ properties: { name: 'x', credit_limit: 'lots' } }, /credit_limit: expected a decimal/],
    [
      { properties: { name: 'x', credit_limit: '1.234' } },
      /credit_limit: has more than 2 decimal places/,
    ],
    [{ properties: { name: 'x'.repeat(201) } }, /name: is longer than 200/],
    [{ properties: { name: 'x', colour: 'red' } }, /account has no property "colour"/],
    [{ properties: { nam: 'x' } }, /did you mean "name"\?/],
    [{ properties: {} }, /account\.name: is required/],
    [{ properties: { name: null } }, /name: must not be null/],
    [{ entity_name: 'invoice', properties: { name: 'x' } }, /entity_name/],
    [{ properties: { name: 'x' }, children: { account_contact: [] } }, /unknown child group/],
    [[1, 2], /expected an object/],
  ])('answers 400 naming the problem for %j', async (payload, detail) => {
    const { body } = await api()
      .post('/rest/entity/account', payload as object)
      .expect(400);
    expect(body.detail).toMatch(detail);
  });

  it('checks child properties and date-times, naming the child and its index', async () => {
    const bad = await api()
      .post('/rest/entity/invoice', {
        properties: { id_account: accountKey, issue_date: 'yesterday' },
        children: { [LINES]: [] },
      })
      .expect(400);
    expect(bad.body.detail).toMatch(/invoice\.issue_date: expected an ISO 8601 date-time/);
    for (const impossible of ['2026-02-30T10:00:00Z', '2026-04-31T10:00:00Z']) {
      const { body } = await api()
        .post('/rest/entity/invoice', {
          properties: { id_account: accountKey, issue_date: impossible },
        })
        .expect(400);
      expect(body.detail).toMatch(/invoice\.issue_date: expected an ISO 8601 date-time/);
    }
    const badLine = await api()
      .post('/rest/entity/invoice', {
        properties: { id_account: accountKey },
        children: {
          [LINES]: [line(1, '1.00'), { properties: { quantity: 'many', unit_price: '1' } }],
        },
      })
      .expect(400);
    expect(badLine.body.detail).toMatch(/invoice_invoice_line\[1\]\.quantity: expected an integer/);
  });

  it('answers 400 for a lookup to a missing row, and for an enum value out of its list', async () => {
    const { body } = await api()
      .post('/rest/entity/invoice', { properties: { id_account: 999999999 } })
      .expect(400);
    expect(body.detail).toMatch(/invoice\.id_account: no account with key 999999999/);
    // A hook refusing the record (a line's quantity of 0) does not hide the missing row.
    const withBadLine = await api()
      .post('/rest/entity/invoice', {
        properties: { id_account: 999999999 },
        children: { [LINES]: [line(0, '1.00')] },
      })
      .expect(400);
    expect(withBadLine.body.detail).toBe('invoice.id_account: no account with key 999999999');
    const status = await api()
      .post('/rest/entity/invoice', { properties: { id_account: accountKey, status: 'lost' } })
      .expect(400);
    expect(status.body.detail).toMatch(/status: must be one of draft, issued, paid, cancelled/);
  });

  it('answers 400 for an unparsable body, 415 for a body that is not JSON', async () => {
    await request(t.http)
      .post('/rest/entity/account')
      .set('X-API-Key', key)
      .set('Content-Type', 'application/json')
      .send('{"properties":')
      .expect(400);
    await request(t.http)
      .post('/rest/entity/account')
      .set('X-API-Key', key)
      .set('Content-Type', 'text/plain')
      .send('name=x')
      .expect(415);
    await request(t.http)
      .post(`/rest/entity/account/${accountKey}`)
      .set('X-API-Key', key)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('name=x')
      .expect(415);
  });

  it('answers 404 for an unknown entity type and an unknown key', async () => {
    expect((await api().get('/rest/entity/spaceship/1').expect(404)).body.detail).toMatch(
      /spaceship/,
    );
    await api().get('/rest/entity/account/999999999').expect(404);
    await api().get('/rest/entity/account/99999999999999999999').expect(404);
    const notAKey = await api().get('/rest/entity/account/abc').expect(400);
    expect(notAKey.body.detail).toMatch(/key must be a non-negative integer/);
    await api().get('/rest/entity/invoice_line/999999999').expect(404);
    await api()
      .post('/rest/entity/account/999999999', { properties: { name: 'x' } })
      .expect(404);
    await api().delete('/rest/entity/account/999999999').expect(404);
  });

  it('answers 401 without credentials and 403 without the CSRF header for a cookie session', async () => {
    await request(t.http).get(`/rest/entity/account/${accountKey}`).expect(401);
    await request(t.http)
      .post('/rest/entity/account')
      .send({ properties: { name: 'x' } })
      .expect(401);
    await request(t.http)
      .post(`/rest/entity/account/${accountKey}`)
      .send({ properties: { name: 'x' } })
      .expect(401);
    await request(t.http).delete(`/rest/entity/account/${accountKey}`).expect(401);
    const session = await sessionOfNewUser(t);
    await request(t.http)
      .post('/rest/entity/account')
      .set('Cookie', session.cookie)
      .send({ properties: { name: 'x' } })
      .expect(403);
    await request(t.http)
      .post('/rest/entity/account')
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrfToken)
      .send({ properties: { name: 'Cookie Co' } })
      .expect(200);
  });
});
