import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Shop1795557044215 } from '../examples/shop/1795557044215-Shop';
import { ShopModule } from '../examples/shop/shop.module';
import { AccessFixture, as } from './helpers/access';
import { createTestApp, TestApp, uniqueName } from './helpers/test-app';

const EXAMPLE = join(__dirname, '../examples/shop');

/**
 * The extension example of docs/extending.md (examples/shop) as an application module:
 * loaded into the app with its generated migration and driven over HTTP, and quoted by
 * that page word for word, so the documented path cannot break unnoticed.
 */
describe('the example module of docs/extending.md', () => {
  let t: TestApp;
  let f: AccessFixture;

  beforeAll(async () => {
    t = await createTestApp({}, { modules: [ShopModule], migrations: [Shop1795557044215] });
    f = await AccessFixture.create(t);
  });
  afterAll(() => t.close());

  const order = (items: number[]) => ({
    properties: { reference: uniqueName('PO') },
    children: {
      purchase_order_purchase_order_item: items.map((quantity) => ({ properties: { quantity } })),
    },
  });

  it('has a migration that builds exactly what its entities (and the app’s) declare', async () => {
    const sql = await t.dataSource.driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('creates an order with its items, the hook counting them', async () => {
    const { body: created } = await as(t, f.admin)
      .post('/rest/entity/purchase_order', order([2, 5]))
      .expect(200);
    const { body } = await as(t, f.admin).get(`/rest/entity/purchase_order/${created.key}`);
    expect(body.properties).toMatchObject({ item_count: 2, closed: false });
    expect(
      body.children.purchase_order_purchase_order_item.map(
        (item: { properties: { quantity: number } }) => item.properties.quantity,
      ),
    ).toEqual([2, 5]);
  });

  it('answers the hook’s refusal with the 424 record', async () => {
    const { body } = await as(t, f.admin)
      .post('/rest/entity/purchase_order', order([]))
      .expect(424);
    expect(body).toMatchObject({
      eventName: 'onBeforeInsert',
      entityName: 'purchase_order',
      propertyName: 'reference',
      detail: 'An order needs items',
    });
  });

  it('closes an order through the workflow once, as a caller its roles allow', async () => {
    const { body: created } = await as(t, f.admin)
      .post('/rest/entity/purchase_order', order([1]))
      .expect(200);
    const reader = await f.user(f.units.main, [
      (await f.role({ purchase_order: { read: 'organization' } })).name,
    ]);
    const close = (apiKey: string) =>
      as(t, apiKey).post('/rest/workflow/shop/close', { orderKey: created.key });
    await close(reader.apiKey).expect(403);

    const { body } = await close(f.admin).expect(200);
    const [{ open }] = await t.dataSource.query(
      `SELECT count(*)::int AS open FROM purchase_order o
         JOIN organization g ON g.key = o.id_organization AND g.name = 'Demo' WHERE NOT o.closed`,
    );
    expect(body).toEqual({ closed: created.key, stillOpen: open });
    const again = await close(f.admin).expect(409);
    expect(again.body).toEqual({ detail: `order ${created.key} is closed` });
  });

  it('is quoted by docs/extending.md word for word', async () => {
    const page = await readFile(join(__dirname, '../docs/extending.md'), 'utf8');
    const files = (await readdir(EXAMPLE)).filter((name) => !/^\d+-/.test(name));
    expect(files.sort()).toEqual([
      'purchase-order.entity.ts',
      'purchase-order.hooks.ts',
      'shop.module.ts',
      'shop.workflow.ts',
    ]);
    for (const name of files) {
      const source = await readFile(join(EXAMPLE, name), 'utf8');
      expect(page).toContain(`\`\`\`ts\n// examples/shop/${name}\n${source}\`\`\``);
    }
  });
});
