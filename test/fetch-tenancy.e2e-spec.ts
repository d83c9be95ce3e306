import request from 'supertest';
import {
  apiKeyFor,
  createOrganization,
  createTestApp,
  postFetch,
  seedAdmin,
  TestApp,
} from './helpers/test-app';

const MARKER = 'Other Org Only';

/**
 * Two organizations: Demo (the seed's) and a second one whose rows carry a marker, plus
 * one row of it that points at a Demo account (bad data no API could make). No query of
 * either returns, counts or aggregates the other's rows, through any kind of link.
 */
describe('FETCH tenancy', () => {
  let t: TestApp;
  let demoKey: string;
  let otherKey: string;
  let demoAccountKey: number;

  const run = (apiKey: string, query: string) =>
    postFetch(t, apiKey, query)
      .expect(200)
      .then((response) => response.body as Record<string, unknown>[]);
  const demo = (query: string) => run(demoKey, query);
  const other = (query: string) => run(otherKey, query);

  beforeAll(async () => {
    t = await createTestApp();
    ({ key: demoKey } = await seedAdmin(t));
    const created = await createOrganization(t);
    otherKey = await apiKeyFor(t, created.admin.key);

    const post = async (name: string, body: object) =>
      (
        await request(t.http)
          .post(`/rest/entity/${name}`)
          .set('X-API-Key', otherKey)
          .send(body)
          .expect(200)
      ).body.key as number;
    const account = await post('account', { properties: { name: MARKER, country: 'RO' } });
    await post('contact', { properties: { last_name: MARKER, id_account: account } });
    const product = await post('product', {
      properties: { code: 'P-001', name: MARKER, price: '1.00' },
    });
    await post('invoice', {
      properties: { id_account: account, number: 'INV-OTHER-1', status: 'draft' },
      children: {
        invoice_invoice_line: [
          { properties: { id_product: product, quantity: 20, unit_price: '99999.99' } },
        ],
      },
    });
    [{ key: demoAccountKey }] = await t.dataSource.query(
      `SELECT a.key FROM account a JOIN organization o ON o.key = a.id_organization
        WHERE o.name = 'Demo' ORDER BY a.key LIMIT 1`,
    );
    // Bad data: an invoice of the other organization pointing at a Demo account.
    await t.dataSource.query(
      `INSERT INTO invoice (id_organization, id_business_unit, id_user, number, id_account, status, total)
       SELECT id_organization, id_business_unit, key, 'INV-OTHER-CROSS', $1, 'issued', 0
         FROM "user" WHERE key = $2`,
      [demoAccountKey, created.admin.key],
    );
  });
  afterAll(() => t.close());

  const leaks = (rows: Record<string, unknown>[]) =>
    JSON.stringify(rows).match(/Other Org Only|INV-OTHER|99999\.99/g) ?? [];

  it('reads only the caller’s rows, from the root and through every kind of link', async () => {
    for (const query of [
      'FETCH account (name)',
      'FETCH contact (last_name) { account OUTER TO id_account (name) }',
      'FETCH account (name) { invoice FROM id_account TO key (number, total) }',
      'FETCH account (name) { invoice OUTER FROM id_account TO key (number, total) }',
      'FETCH account (name) { invoice FROM id_account TO key (number) ORDER BY total DESC LIMIT 3 }',
      'FETCH invoice_line (unit_price) { product TO id_product (name) } WHERE quantity = 20',
      "FETCH product (name) WHERE code = 'P-001'",
      'FETCH user (user_name)',
      'FETCH organization (name)',
      'FETCH business_unit (name) { organization TO id_organization (name) }',
    ]) {
      const rows = await demo(query);
      expect({ query, leaks: leaks(rows) }).toEqual({ query, leaks: [] });
    }
  });

  it('counts and aggregates only the caller’s rows', async () => {
    const [sql] = await t.dataSource.query(
      `SELECT count(*)::int AS n, sum(i.total)::text AS total, max(l.unit_price)::text AS price
         FROM invoice i JOIN organization o ON o.key = i.id_organization
         LEFT JOIN invoice_line l ON l.id_invoice = i.key
        WHERE o.name = 'Demo'`,
    );
    const [fetched] = await demo(
      'FETCH invoice (COUNT(*) AS n, SUM(total) AS total) { invoice_line OUTER FROM id_invoice TO key (MAX(unit_price) AS price) }',
    );
    expect(fetched).toEqual(sql);
    const [{ n }] = await demo("FETCH account (COUNT(*) AS n) WHERE name = 'Other Org Only'");
    expect(n).toBe(0);
  });

  it('keeps EXISTS and NOT EXISTS inside the organization', async () => {
    const withCross = await demo(
      `FETCH account (key) { invoice EXISTS FROM id_account TO key WHERE number = 'INV-OTHER-CROSS' }`,
    );
    expect(withCross).toEqual([]);
    const without = await demo(
      `FETCH account (key) { invoice NOT EXISTS FROM id_account TO key WHERE number = 'INV-OTHER-CROSS' }
       WHERE key = ${demoAccountKey}`,
    );
    expect(without).toEqual([{ key: demoAccountKey }]);
  });

  it('does not follow the other organization’s row into the caller’s, nor back', async () => {
    const inner = await other(
      "FETCH invoice (number) { account TO id_account (name) } WHERE number = 'INV-OTHER-CROSS'",
    );
    expect(inner).toEqual([]);
    const outer = await other(
      "FETCH invoice (number) { account OUTER TO id_account (name) } WHERE number = 'INV-OTHER-CROSS'",
    );
    expect(outer).toEqual([{ number: 'INV-OTHER-CROSS', 'account.name': null }]);
    const accounts = await other('FETCH account (name)');
    expect(accounts).toEqual([{ name: MARKER }]);
  });
});
