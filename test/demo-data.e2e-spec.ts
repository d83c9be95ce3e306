import { createTestApp, TestApp } from './helpers/test-app';

describe('demo data set', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is seeded into the Demo organization on first boot', async () => {
    const [counts] = await t.dataSource.query(`
      SELECT (SELECT count(*) FROM account a WHERE a.id_organization = o.key)::int AS accounts,
             (SELECT count(*) FROM contact c WHERE c.id_organization = o.key)::int AS contacts,
             (SELECT count(*) FROM product p WHERE p.id_organization = o.key)::int AS products,
             (SELECT count(*) FROM invoice i WHERE i.id_organization = o.key AND i.number LIKE 'INV-%')::int AS issued,
             (SELECT max(date_created) - min(date_created) FROM invoice i WHERE i.id_organization = o.key) AS spread
        FROM organization o WHERE o.name = 'Demo'`);
    expect(counts.accounts).toBeGreaterThanOrEqual(20);
    expect(counts.contacts).toBeGreaterThanOrEqual(60);
    expect(counts.products).toBeGreaterThanOrEqual(30);
    expect(counts.issued).toBeGreaterThan(200);
    expect(counts.spread.days).toBeGreaterThan(600);
  });

  it('has invoice totals equal to the sum of their lines, computed by the hooks', async () => {
    const mismatches = await t.dataSource.query(`
      SELECT i.key FROM invoice i JOIN organization o ON o.key = i.id_organization AND o.name = 'Demo'
        LEFT JOIN invoice_line l ON l.id_invoice = i.key
       GROUP BY i.key, i.total HAVING i.total <> coalesce(sum(l.amount), 0)`);
    expect(mismatches).toEqual([]);
    const [{ lines }] = await t.dataSource.query(
      `SELECT count(*)::int AS lines FROM invoice_line WHERE amount <> quantity * unit_price`,
    );
    expect(lines).toBe(0);
  });
});
