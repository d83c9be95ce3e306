import request from 'supertest';
import { StatementCounter } from './helpers/statement-counter';
import { apiKeyUser, createTestApp, TestApp } from './helpers/test-app';

describe('statements per entity operation', () => {
  let t: TestApp;
  let key: string;
  let accountKey: number;
  let productKey: number;
  let counter: StatementCounter;

  const post = (path: string, body: object) =>
    request(t.http).post(path).set('X-API-Key', key).send(body);
  const tenLines = () =>
    Array.from({ length: 10 }, (_, i) => ({
      properties: { id_product: productKey, quantity: i + 1, unit_price: '1.25' },
    }));
  const recorded = (work: () => Promise<unknown>) => counter.record(work);

  beforeAll(async () => {
    // A long API-key cache keeps authentication out of the counts after the first request.
    t = await createTestApp({ API_KEY_CACHE_SECONDS: '30' });
    counter = await StatementCounter.attach(t);
    ({ key } = await apiKeyUser(t));
    accountKey = (await post('/rest/entity/account', { properties: { name: 'Counted' } })).body.key;
    productKey = (await post('/rest/entity/product', { properties: { code: `S-${Date.now()}` } }))
      .body.key;
  });
  afterAll(() => t.close());

  it('creates an invoice with 10 lines in 5 statements: its lookups checked inside the INSERT, one for the change log', async () => {
    const statements = await recorded(() =>
      post('/rest/entity/invoice', {
        properties: { id_account: accountKey },
        children: { invoice_invoice_line: tenLines() },
      }).expect(200),
    );
    expect(statements.map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual([
      'START TRANSACTION',
      'INSERT INTO "invoice"',
      'INSERT INTO "invoice_line"', // one multi-row INSERT for the ten lines
      'WITH v AS', // the change log's eleven entries, in one statement
      'COMMIT',
    ]);
    expect(statements[3]).toMatch(/INSERT INTO change_log/);
    // The account, and the product of all ten lines once, must be readable for the row to go in.
    expect(statements[1]).toMatch(/count\(\*\) FROM "account" t WHERE t\.key = ANY/);
    expect(statements[1]).toMatch(/count\(\*\) FROM "product" t WHERE t\.key = ANY/);
  });

  it('checks the lookups one by one only when the INSERT finds one missing: the same 400, nothing written', async () => {
    const invoices = async () =>
      Number((await t.dataSource.query('SELECT count(*) AS n FROM invoice'))[0].n);
    const before = await invoices();
    const lines = tenLines();
    lines[3].properties.id_product = 999999999;
    let detail = '';
    const statements = await recorded(async () => {
      ({
        body: { detail },
      } = await post('/rest/entity/invoice', {
        properties: { id_account: accountKey },
        children: { invoice_invoice_line: lines },
      }).expect(400));
    });
    expect(detail).toBe('invoice_invoice_line[3].id_product: no product with key 999999999');
    expect(statements.map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual([
      'START TRANSACTION',
      'INSERT INTO "invoice"', // inserts nothing: a product is missing
      'SELECT t.key FROM', // account
      'SELECT t.key FROM', // products: names the line
      'ROLLBACK',
    ]);
    expect(await invoices()).toBe(before);
  });

  it('reads an invoice with 10 lines in 2 statements', async () => {
    const invoiceKey = (
      await post('/rest/entity/invoice', {
        properties: { id_account: accountKey },
        children: { invoice_invoice_line: tenLines() },
      })
    ).body.key;
    const statements = await recorded(async () => {
      const { body } = await request(t.http)
        .get(`/rest/entity/invoice/${invoiceKey}`)
        .set('X-API-Key', key)
        .expect(200);
      expect(body.children.invoice_invoice_line).toHaveLength(10);
    });
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(
      /FROM "invoice" t WHERE t.key = \$1::int8 AND t."id_organization" = \$2/,
    );
    expect(statements[1]).toMatch(/FROM "invoice_line" t WHERE t."id_invoice" = ANY/);
  });

  it('updates 10 lines with one UPDATE, whatever their number', async () => {
    const invoiceKey = (
      await post('/rest/entity/invoice', {
        properties: { id_account: accountKey },
        children: { invoice_invoice_line: tenLines() },
      })
    ).body.key;
    const read = await request(t.http)
      .get(`/rest/entity/invoice/${invoiceKey}`)
      .set('X-API-Key', key);
    const lines = read.body.children.invoice_invoice_line.map(
      (l: { properties: { key: number } }) => ({
        properties: { key: l.properties.key, quantity: 7 },
      }),
    );
    const statements = await recorded(() =>
      post(`/rest/entity/invoice/${invoiceKey}`, {
        children: { invoice_invoice_line: lines },
      }).expect(200),
    );
    const updates = statements.filter((s) => s.startsWith('UPDATE "invoice_line"'));
    expect(updates).toHaveLength(1);
    expect(statements.filter((s) => /INSERT INTO change_log/.test(s))).toHaveLength(1);
    expect(statements.length).toBeLessThanOrEqual(8);
  });
});
