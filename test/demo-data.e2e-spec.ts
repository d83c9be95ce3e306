import { User } from '../src/directory/entities';
import { generateDemoData } from '../src/demo/demo-data';
import { apiKeyFor, createTestApp, postFetch, TestApp } from './helpers/test-app';

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

  it('is written by first boot as the system, owned by the administrator', async () => {
    const [first] = await t.dataSource.query(`
      SELECT c.actor_name AS "actorName", c.via, u.user_name AS owner
        FROM change_log c JOIN organization o ON o.key = c.id_organization AND o.name = 'Demo'
        JOIN "user" u ON u.key = c.id_user
       WHERE c.entity = 'account' AND c.operation = 'created'
       ORDER BY c.key LIMIT 1`);
    expect(first).toEqual({ actorName: 'admin', via: 'system', owner: 'admin' });
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

  describe('access control', () => {
    const keyOf = async (userName: string) =>
      apiKeyFor(t, (await t.dataSource.getRepository(User).findOneByOrFail({ userName })).key);
    // Other suites share the database (server mode) and add units and accounts as this
    // runs: counts stay on the demo's own accounts, by name.
    const demoNames = generateDemoData(new Date()).accounts.map((a) => String(a.name));
    const demoAccountsOfUnits = async (units: string[]) =>
      (
        await t.dataSource.query(
          `SELECT count(*)::int AS n FROM account a JOIN business_unit b ON b.key = a.id_business_unit
             JOIN organization o ON o.key = a.id_organization AND o.name = 'Demo'
            WHERE b.name = ANY($1::text[]) AND a.name = ANY($2::text[])`,
          [units, demoNames],
        )
      )[0].n;
    const visibleDemoAccounts = async (apiKey: string) =>
      (
        await postFetch(t, apiKey, {
          entity: 'account',
          properties: [{ property: '*', aggregate: 'count', alias: 'n' }],
          filter: [
            { type: 'And', conditions: [{ property: 'name', operator: 'in', value: demoNames }] },
          ],
        }).expect(200)
      ).body[0].n;

    it('has units Sales and Support under Main, and users holding the demo roles', async () => {
      const units = await t.dataSource.query(
        `SELECT b.name, p.name AS parent FROM business_unit b
           JOIN business_unit p ON p.key = b.id_parent_business_unit
           JOIN organization o ON o.key = b.id_organization AND o.name = 'Demo'
          WHERE b.name IN ('Sales', 'Support') ORDER BY b.name`,
      );
      expect(units).toEqual([
        { name: 'Sales', parent: 'Main' },
        { name: 'Support', parent: 'Main' },
      ]);
      const holders = await t.dataSource.query(
        `SELECT u.user_name AS user, r.name AS role FROM user_role ur
           JOIN "user" u ON u.key = ur.id_parent_user JOIN role r ON r.key = ur.id_role
          WHERE u.user_name LIKE '%.%' ORDER BY u.user_name`,
      );
      expect(holders).toEqual([
        { user: 'mia.manager', role: 'manager' },
        { user: 'sam.sales', role: 'sales-rep' },
        { user: 'sara.sales', role: 'sales-rep' },
        { user: 'sue.support', role: 'support' },
      ]);
    });

    it('shows each depth: a sales rep its unit’s accounts, support and the manager all', async () => {
      const all = await demoAccountsOfUnits(['Main', 'Sales', 'Support']);
      const sales = await demoAccountsOfUnits(['Sales']);
      expect(sales).toBeGreaterThan(0);
      expect(sales).toBeLessThan(all);
      expect(await visibleDemoAccounts(await keyOf('sara.sales'))).toBe(sales);
      const support = await keyOf('sue.support');
      expect(await visibleDemoAccounts(support)).toBe(all);
      await postFetch(t, support, 'FETCH account (credit_limit)').expect(403);
      const manager = await keyOf('mia.manager');
      expect(await visibleDemoAccounts(manager)).toBe(all);
      await postFetch(t, manager, 'FETCH account (credit_limit)').expect(200);
    });
  });
});
