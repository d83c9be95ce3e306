import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { TestOrders1795796939839 } from './fixtures/orders/1795796939839-TestOrders';
import { TestOrdersModule } from './fixtures/orders/test-orders.module';
import { environmentWithout, runToExit } from './helpers/child-process';
import { seedAdmin, createTestApp, TestApp } from './helpers/test-app';

const ROOT = resolve(__dirname, '..');

/** A JSON document read by path, as the assertions below read the OpenAPI document. */
interface Json {
  [key: string]: Json;
}
const TS_NODE = require.resolve('ts-node/dist/bin.js');
const TSC = require.resolve('typescript/bin/tsc');

/**
 * A small program a client developer writes against the generated types: an invoice with
 * lines, the workflow issuing it, the invoice read back. `misspelt` names a property wrong.
 */
const program = (misspelt = false) => `
import createClient from 'openapi-fetch';
import type { paths } from './atrium-api.js';

const client = createClient<paths>({
  baseUrl: process.env.ATRIUM_URL,
  headers: { 'X-API-Key': process.env.ATRIUM_KEY ?? '' },
});

const account = await client.POST('/rest/entity/account', {
  body: { properties: { name: 'Typed Ltd' } },
});
const created = await client.POST('/rest/entity/invoice', {
  body: {
    properties: { id_account: account.data!.key, currency: 'EUR' },
    children: {
      invoice_invoice_line: [{ properties: { ${misspelt ? 'quantitty' : 'quantity'}: 2, unit_price: '3.50' } }],
    },
  },
});
const issued = await client.POST('/rest/workflow/invoicing/issue', {
  body: { invoiceKey: created.data!.key },
});
const read = await client.GET('/rest/entity/invoice/{key}', {
  params: { path: { key: created.data!.key } },
});
const total: string = read.data!.properties.total;
const lines: number = read.data!.children.invoice_invoice_line.length;
console.log(JSON.stringify({ issued: issued.data, total, lines }));
`;

/**
 * The OpenAPI document lists a path per entity type and workflow method, from the
 * registries (an application module's types too); `npm run client:generate` turns it
 * into types that a program compiles against, and a misspelt property does not compile.
 */
describe('the OpenAPI document and the typed client', () => {
  let t: TestApp;
  let document: Json;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp(
      {},
      { modules: [TestOrdersModule], migrations: [TestOrders1795796939839] },
    );
    document = (await request(t.http).get('/docs-json').expect(200)).body;
    dir = await mkdtemp(join(tmpdir(), 'atr-client-'));
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await writeFile(join(dir, 'docs.json'), JSON.stringify(document));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('has a path per entity type, an application module’s included, and per workflow method', () => {
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/rest/entity/test_order',
        '/rest/entity/test_order/{key}',
        '/rest/entity/test_order/{key}/owner',
        '/rest/entity/test_order_line/{key}',
        '/rest/entity/invoice',
        '/rest/entity/invoice/{key}',
        '/rest/workflow/test_orders/close',
        '/rest/workflow/invoicing/summary',
      ]),
    );
    // The generic routes are described by the per-type paths instead.
    expect(document.paths['/rest/entity/{name}/{key}']).toBeUndefined();
    // A child type is written through its parent; a type no client writes is read only.
    expect(Object.keys(document.paths['/rest/entity/test_order_line/{key}'])).toEqual(['get']);
    expect(document.paths['/rest/entity/file']).toBeUndefined();
    expect(Object.keys(document.paths['/rest/entity/file/{key}'])).toEqual(['get']);
    expect(document.paths['/rest/entity/file/{key}/owner'].post).toBeDefined();
    const update = document.paths['/rest/entity/invoice/{key}'].post;
    expect(Object.keys(update.responses)).toEqual(
      expect.arrayContaining(['200', '400', '403', '404', '409', '412', '424']),
    );
  });

  it('keeps the operation ids generated clients name their operations by', () => {
    // The privileges route moved to another controller; its id stays what it was.
    expect(document.paths['/rest/metadata/privileges'].get.operationId).toBe(
      'AccessController_privileges',
    );
  });

  it('describes records from the registry: JSON types, decimals as strings, child groups', () => {
    const schemas = document.components.schemas;
    const invoice = schemas['invoice.record'].properties;
    const properties = invoice.properties.properties;
    expect(properties.total).toMatchObject({ type: 'string', format: 'decimal', readOnly: true });
    expect(properties.status).toMatchObject({
      type: 'string',
      enum: ['draft', 'issued', 'paid', 'cancelled'],
    });
    expect(properties.id_account).toMatchObject({ type: 'integer', 'x-lookup': 'account' });
    expect(properties.issue_date).toMatchObject({
      type: 'string',
      format: 'date-time',
      nullable: true,
    });
    expect(invoice.children.properties.invoice_invoice_line).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/invoice_line.record' },
    });
    const create = schemas['test_order.create'].properties;
    expect(create.properties.required).toEqual(['reference']);
    expect(create.properties.properties).not.toHaveProperty('line_count');
    expect(create.children.properties.test_order_test_order_line.items).toEqual({
      $ref: '#/components/schemas/test_order_line.create',
    });
    const close = document.paths['/rest/workflow/test_orders/close'].post.requestBody;
    expect(close.content['application/json'].schema).toEqual({
      type: 'object',
      properties: { orderKey: { type: 'integer', format: 'int64' } },
      required: ['orderKey'],
      additionalProperties: false,
    });
    const summary = document.paths['/rest/workflow/invoicing/summary'].post.requestBody;
    expect(summary.content['application/json'].schema.properties.from).toMatchObject({
      type: 'string',
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$',
    });
    // A write takes a decimal as text or a number; an update's new child (no key) is a create.
    const update = schemas['invoice.update'].properties;
    expect(update.properties.properties.currency).toMatchObject({ type: 'string', maxLength: 3 });
    const line = schemas['invoice_line.create'].properties.properties.properties;
    expect(line.unit_price.oneOf).toEqual([
      expect.objectContaining({ type: 'string', format: 'decimal' }),
      { type: 'number' },
    ]);
    expect(update.children.properties.invoice_invoice_line.items.oneOf[0]).toEqual({
      $ref: '#/components/schemas/invoice_line.create',
    });
    expect(schemas.BusinessRuleFailure.properties).toHaveProperty('childEntityIndex');
    expect(
      document.paths['/rest/metadata/entity'].get.responses['200'].content['application/json']
        .schema.items,
    ).toEqual({ $ref: '#/components/schemas/EntityDescription' });
  });

  it('is valid OpenAPI; the generated types compile a client program, and refuse a misspelt property', async () => {
    const tool = await runToExit(
      TS_NODE,
      [
        '--transpile-only',
        join(ROOT, 'src/metadata/client-tool.ts'),
        'docs.json',
        'atrium-api.d.ts',
      ],
      { env: environmentWithout('TEST_DATABASE_URL'), cwd: dir },
    );
    expect(tool.stderr).not.toMatch(/not a valid OpenAPI document|failed/);
    expect(tool.code).toBe(0);
    expect(tool.stdout).toMatch(/^Wrote atrium-api\.d\.ts \(\d+ paths\)$/m);
    expect(await readFile(join(dir, 'atrium-api.d.ts'), 'utf8')).toContain('"test_order.create"');

    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          skipLibCheck: true,
          types: ['node'],
          lib: ['es2022', 'dom'],
          outDir: 'out',
        },
        files: ['program.mts'],
      }),
    );
    const compile = () => runToExit(TSC, ['-p', 'tsconfig.json'], { env: process.env, cwd: dir });
    await writeFile(join(dir, 'program.mts'), program(true));
    const refused = await compile();
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toContain("'quantitty' does not exist");

    await writeFile(join(dir, 'program.mts'), program());
    const compiled = await compile();
    expect(compiled.stdout).toBe('');
    expect(compiled.code).toBe(0);

    // And it runs: the types describe what the server answers.
    const { key } = await seedAdmin(t);
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const ran = await runToExit(join(dir, 'out/program.mjs'), [], {
      env: { ...process.env, ATRIUM_URL: `http://127.0.0.1:${port}`, ATRIUM_KEY: key },
      cwd: dir,
    });
    expect(ran.stderr).toBe('');
    expect(JSON.parse(ran.stdout)).toEqual({
      issued: { status: 'issued', number: expect.any(String) },
      total: '7.00',
      lines: 1,
    });
  }, 120_000);
});
