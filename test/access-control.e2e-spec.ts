import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import {
  AccessFixture,
  as as asKey,
  FieldPermission,
  Owner,
  OWNERS,
  REACH,
} from './helpers/access';
import { environmentWithout } from './helpers/child-process';
import { waitFor } from './helpers/postmaster';
import { running, ServerProcess } from './helpers/server-process';
import { apiKeyFor, createTestApp, postFetch, TestApp, uniqueName } from './helpers/test-app';

describe('access control: assign, children, field security, administration', () => {
  let t: TestApp;
  let f: AccessFixture;
  let admin: string;
  let units: AccessFixture['units'];
  let owners: AccessFixture['owners'];

  const as = (apiKey: string) => asKey(t, apiKey);
  const makeRole = (...args: Parameters<AccessFixture['role']>) => f.role(...args);
  const user = (unit: number, roles: string[]) => f.user(unit, roles);
  const creditLimit = (read: boolean, update: boolean): FieldPermission[] => [
    { entity_name: 'account', property: 'credit_limit', read, update },
  ];

  /** An account per owner, made by the administrator and given to that owner. */
  async function accountsOfEveryOwner(): Promise<Record<Owner, number>> {
    const keys = {} as Record<Owner, number>;
    for (const owner of OWNERS) {
      const { body } = await as(admin)
        .post('/rest/entity/account', { properties: { name: uniqueName(owner) } })
        .expect(200);
      await f.give('account', body.key, owner);
      keys[owner] = body.key;
    }
    return keys;
  }

  beforeAll(async () => {
    t = await createTestApp();
    f = await AccessFixture.create(t);
    ({ admin, units, owners } = f);
  });
  afterAll(async () => {
    // A second server that failed to start is still running: it must not outlive the suite.
    for (const server of running) await server.kill('SIGKILL');
    await t.close();
  });

  describe('a role with a different depth per action', () => {
    let caller: { key: number; apiKey: string };
    let accounts: Record<Owner, number>;

    beforeAll(async () => {
      const role = await makeRole({
        account: {
          create: 'user',
          read: 'organization',
          write: 'business_unit',
          delete: 'user',
        },
      });
      caller = { key: owners.self, apiKey: await apiKeyFor(t, owners.self) };
      await f.holds(owners.self, [role.key]);
      accounts = await accountsOfEveryOwner();
    });

    it('changes what write reaches, deletes what delete reaches, 403 beyond', async () => {
      for (const owner of OWNERS) {
        const writable = REACH.business_unit.includes(owner);
        await as(caller.apiKey)
          .post(`/rest/entity/account/${accounts[owner]}`, { properties: { name: `w-${owner}` } })
          .expect(writable ? 200 : 403);
      }
      await as(caller.apiKey).delete(`/rest/entity/account/${accounts.sameUnit}`).expect(403);
      await as(caller.apiKey).delete(`/rest/entity/account/${accounts.self}`).expect(200);
    });

    it('creates records owned by the caller and the caller’s unit', async () => {
      const { body } = await as(caller.apiKey)
        .post('/rest/entity/account', { properties: { name: 'own' } })
        .expect(200);
      const read = await as(caller.apiKey).get(`/rest/entity/account/${body.key}`).expect(200);
      expect(read.body.properties).toMatchObject({
        id_user: caller.key,
        id_business_unit: units.child,
      });
    });

    it('assigns a record it may write where it goes; 403 where it could not write it there', async () => {
      const { body } = await as(caller.apiKey)
        .post('/rest/entity/account', { properties: { name: 'to give' } })
        .expect(200);
      await as(caller.apiKey)
        .post(`/rest/entity/account/${body.key}/owner`, { userKey: owners.sibling })
        .expect(403);
      const given = await as(caller.apiKey)
        .post(`/rest/entity/account/${body.key}/owner`, { userKey: owners.sameUnit })
        .expect(200);
      expect(given.body).toEqual({ operation: 'assign', key: body.key });
      const read = await as(caller.apiKey).get(`/rest/entity/account/${body.key}`).expect(200);
      expect(read.body.properties.id_user).toBe(owners.sameUnit);
      await as(caller.apiKey)
        .post(`/rest/entity/account/${body.key}/owner`, { userKey: 999999999 })
        .expect(400);
      await as(caller.apiKey)
        .post(`/rest/entity/account/${body.key}/owner`, { userKey: 'x' })
        .expect(400);
    });
  });

  describe('lookups', () => {
    it('refuse a record the caller may not read with the 400 of a key that does not exist', async () => {
      const role = await makeRole({
        account: { read: 'user' },
        contact: { create: 'user', read: 'user', write: 'user' },
      });
      const caller = await user(units.child, [role.name]);
      const theirs = (
        await as(admin)
          .post('/rest/entity/account', { properties: { name: 'theirs' } })
          .expect(200)
      ).body.key;
      const unreadable = await as(caller.apiKey)
        .post('/rest/entity/contact', { properties: { last_name: 'x', id_account: theirs } })
        .expect(400);
      const missing = await as(caller.apiKey)
        .post('/rest/entity/contact', { properties: { last_name: 'x', id_account: 999999999 } })
        .expect(400);
      expect(unreadable.body.detail).toBe(`contact.id_account: no account with key ${theirs}`);
      expect(missing.body.detail).toBe('contact.id_account: no account with key 999999999');
    });
  });

  describe('child groups follow their parent', () => {
    it('moves an invoice’s lines with it; reads a child type under the parent’s read depth', async () => {
      const [product] = await t.dataSource.query(`SELECT key FROM product LIMIT 1`);
      const account = (
        await as(admin)
          .post('/rest/entity/account', { properties: { name: 'inv' } })
          .expect(200)
      ).body.key;
      const invoice = (
        await as(admin)
          .post('/rest/entity/invoice', {
            properties: { id_account: account },
            children: {
              invoice_invoice_line: [
                { properties: { id_product: product.key, quantity: 1, unit_price: '2.00' } },
              ],
            },
          })
          .expect(200)
      ).body.key;
      await as(admin)
        .post(`/rest/entity/invoice/${invoice}/owner`, { userKey: owners.sibling })
        .expect(200);
      const [line] = await t.dataSource.query(
        `SELECT key, id_user, id_business_unit FROM invoice_line WHERE id_invoice = $1`,
        [invoice],
      );
      expect(line).toMatchObject({ id_user: owners.sibling, id_business_unit: units.sibling });

      const role = await makeRole({
        invoice: { read: 'business_unit' },
        account: { read: 'organization' },
      });
      const sibling = await user(units.sibling, [role.name]);
      const child = await user(units.child, [role.name]);
      await as(sibling.apiKey).get(`/rest/entity/invoice_line/${line.key}`).expect(200);
      await as(child.apiKey).get(`/rest/entity/invoice_line/${line.key}`).expect(404);
      const lines = (who: string) =>
        postFetch(t, who, `FETCH invoice_line (key) WHERE id_invoice = ${invoice}`).expect(200);
      expect((await lines(sibling.apiKey)).body).toHaveLength(1);
      expect((await lines(child.apiKey)).body).toHaveLength(0);
      await as(sibling.apiKey)
        .post(`/rest/entity/invoice_line/${line.key}`, { properties: { quantity: 2 } })
        .expect(403);
    });
  });

  describe('field security', () => {
    let account: number;

    beforeAll(async () => {
      account = (
        await as(admin)
          .post('/rest/entity/account', { properties: { name: 'secured', credit_limit: '5.00' } })
          .expect(200)
      ).body.key;
    });

    it('leaves out what the caller may not read and refuses it in FETCH and on write (403)', async () => {
      const role = await makeRole({
        account: { read: 'organization', write: 'organization', create: 'user' },
      });
      const caller = await user(units.child, [role.name]);
      const read = await as(caller.apiKey).get(`/rest/entity/account/${account}`).expect(200);
      expect(read.body.properties).not.toHaveProperty('credit_limit');
      expect(read.body.properties.name).toBe('secured');
      for (const query of [
        `FETCH account (key, credit_limit)`,
        `FETCH account (key) WHERE credit_limit > 1`,
        `FETCH account (key) ORDER BY credit_limit`,
        `FETCH account (credit_limit, COUNT(*) AS n) GROUP BY credit_limit`,
      ]) {
        const refused = await postFetch(t, caller.apiKey, query).expect(403);
        expect(refused.body.detail).toMatch(/account\.credit_limit/);
      }
      const all = await postFetch(
        t,
        caller.apiKey,
        `FETCH account (*) WHERE key = ${account}`,
      ).expect(200);
      expect(all.body[0]).not.toHaveProperty('credit_limit');
      await postFetch(
        t,
        caller.apiKey,
        `FETCH account (credit_limit)`,
        '/rest/metadata/fetch',
      ).expect(403);
      const write = await as(caller.apiKey)
        .post(`/rest/entity/account/${account}`, { properties: { credit_limit: '9.00' } })
        .expect(403);
      expect(write.body.detail).toMatch(/account\.credit_limit/);
      await as(caller.apiKey)
        .post('/rest/entity/account', { properties: { name: 'x', credit_limit: '1.00' } })
        .expect(403);
      // Writing what it may write keeps the secured value it cannot see.
      await as(caller.apiKey)
        .post(`/rest/entity/account/${account}`, { properties: { name: 'renamed' } })
        .expect(200);
      const stored = await as(admin).get(`/rest/entity/account/${account}`).expect(200);
      expect(stored.body.properties.credit_limit).toBe('5.00');
    });

    it('reads with read, updates with update', async () => {
      const reader = await user(units.child, [
        (
          await makeRole(
            { account: { read: 'organization', write: 'organization' } },
            creditLimit(true, false),
          )
        ).name,
      ]);
      const read = await as(reader.apiKey).get(`/rest/entity/account/${account}`).expect(200);
      expect(read.body.properties.credit_limit).toBe('5.00');
      await postFetch(
        t,
        reader.apiKey,
        `FETCH account (credit_limit) WHERE key = ${account}`,
      ).expect(200);
      await as(reader.apiKey)
        .post(`/rest/entity/account/${account}`, { properties: { credit_limit: '6.00' } })
        .expect(403);
      const updater = await user(units.child, [
        (
          await makeRole(
            { account: { read: 'organization', write: 'organization' } },
            creditLimit(true, true),
          )
        ).name,
      ]);
      await as(updater.apiKey)
        .post(`/rest/entity/account/${account}`, { properties: { credit_limit: '6.00' } })
        .expect(200);
    });
  });

  describe('several roles', () => {
    it('take the widest depth of any role, a secured property any role grants, a type row over the role’s *', async () => {
      const [own, other] = await Promise.all(
        ['own', 'other'].map(async (name) => {
          const { body } = await as(admin)
            .post('/rest/entity/account', { properties: { name, credit_limit: '3.00' } })
            .expect(200);
          return body.key as number;
        }),
      );
      await f.give('account', own, 'self');
      await f.give('account', other, 'root');
      const contact = (
        await as(admin)
          .post('/rest/entity/contact', { properties: { last_name: 'c', id_account: own } })
          .expect(200)
      ).body.key;
      // Every type but account at organization depth: its own account row says none.
      const everyTypeButAccount = await makeRole({
        '*': { read: 'organization' },
        account: { read: 'none' },
      });
      const ownAccounts = await makeRole(
        { account: { read: 'user', write: 'user' } },
        creditLimit(true, false),
      );
      const updatesCreditLimits = await makeRole(
        { account: { read: 'none' } },
        creditLimit(false, true),
      );
      await f.holds(owners.self, [everyTypeButAccount.key]);
      const caller = as(await apiKeyFor(t, owners.self));
      await caller.get(`/rest/entity/contact/${contact}`).expect(200);
      await caller.get(`/rest/entity/account/${own}`).expect(404);

      await f.holds(owners.self, [everyTypeButAccount.key, ownAccounts.key]);
      const read = await caller.get(`/rest/entity/account/${own}`).expect(200);
      expect(read.body.properties.credit_limit).toBe('3.00');
      await caller.get(`/rest/entity/account/${other}`).expect(404);
      await caller
        .post(`/rest/entity/account/${own}`, { properties: { credit_limit: '4.00' } })
        .expect(403);

      await f.holds(owners.self, [
        everyTypeButAccount.key,
        ownAccounts.key,
        updatesCreditLimits.key,
      ]);
      await caller
        .post(`/rest/entity/account/${own}`, { properties: { credit_limit: '4.00' } })
        .expect(200);
      expect((await caller.get(`/rest/entity/account/${own}`)).body.properties.credit_limit).toBe(
        '4.00',
      );
      await caller.get(`/rest/entity/contact/${contact}`).expect(200);
    });
  });

  describe('administration', () => {
    it('keeps a role editable and deletable when a type or secured property it names is gone', async () => {
      const role = await makeRole({ account: { read: 'user' } }, creditLimit(true, false));
      // An application that dropped a type or a @Secured since: rows the hooks would refuse now.
      await t.dataSource.query(
        `INSERT INTO role_privilege (id_role, entity_name, read, id_organization, id_business_unit, id_user)
         SELECT key, 'retired_type', 'user', id_organization, id_business_unit, id_user
           FROM role WHERE key = $1`,
        [role.key],
      );
      await t.dataSource.query(
        `UPDATE role_field_permission SET property = 'name' WHERE id_role = $1`,
        [role.key],
      );
      const { body } = await as(admin).get(`/rest/entity/role/${role.key}`).expect(200);
      await as(admin)
        .post(`/rest/entity/role/${role.key}`, {
          properties: { description: 'still editable' },
          children: body.children,
        })
        .expect(200);
      await as(admin).delete(`/rest/entity/role/${role.key}`).expect(200);
    });

    it('lets administrators write roles and units, and everyone of the organization read them', async () => {
      const role = await makeRole({ account: { read: 'user' } });
      const member = await user(units.child, ['member']);
      await as(member.apiKey).get(`/rest/entity/role/${role.key}`).expect(200);
      await as(member.apiKey)
        .post(`/rest/entity/role/${role.key}`, { properties: { description: 'mine' } })
        .expect(403);
      await as(member.apiKey)
        .post('/rest/entity/role', { properties: { name: uniqueName('r') } })
        .expect(403);
    });

    it('refuses a unit parent that would make a cycle, and a privilege on no governed type (424)', async () => {
      const cycle = await as(admin)
        .post(`/rest/entity/business_unit/${units.child}`, {
          properties: { id_parent_business_unit: units.grandchild },
        })
        .expect(424);
      expect(cycle.body.propertyName).toBe('id_parent_business_unit');
      await as(admin)
        .post(`/rest/entity/business_unit/${units.child}`, {
          properties: { id_parent_business_unit: units.child },
        })
        .expect(424);
      const unknown = await as(admin)
        .post('/rest/entity/role', {
          properties: { name: uniqueName('r') },
          children: {
            role_role_privilege: [{ properties: { entity_name: 'spaceship', read: 'user' } }],
          },
        })
        .expect(424);
      expect(unknown.body.childPropertyName).toBe('entity_name');
      const notSecured = await as(admin)
        .post('/rest/entity/role', {
          properties: { name: uniqueName('r') },
          children: {
            role_role_field_permission: [
              { properties: { entity_name: 'account', property: 'name', read: true } },
            ],
          },
        })
        .expect(424);
      expect(notSecured.body.childPropertyName).toBe('property');
    });

    it('sees a role change on the next request, and in a second server process within 5 s', async () => {
      const workDir = await mkdtemp(join(tmpdir(), 'atr-access-'));
      const second = await ServerProcess.start(
        {
          ...environmentWithout('TEST_DATABASE_URL'),
          DATABASE_URL: process.env.ATRIUM_TEST_DATABASE_URL,
          DATA_DIR: workDir,
          DEMO_DATA: 'false',
          LOG_LEVEL: 'info', // ServerProcess waits for the "listening" line
        },
        workDir,
      );
      try {
        const role = await makeRole({ account: { read: 'none' } });
        const caller = await user(units.child, [role.name]);
        const account = (
          await as(admin)
            .post('/rest/entity/account', { properties: { name: 'later' } })
            .expect(200)
        ).body.key;
        const path = `/rest/entity/account/${account}`;
        const inSecond = () => request(second.url).get(path).set('X-API-Key', caller.apiKey);
        await as(caller.apiKey).get(path).expect(404);
        await inSecond().expect(404);
        const [privilege] = await t.dataSource.query(
          `SELECT key FROM role_privilege WHERE id_role = $1`,
          [role.key],
        );
        await as(admin)
          .post(`/rest/entity/role/${role.key}`, {
            children: {
              role_role_privilege: [
                {
                  properties: { key: privilege.key, entity_name: 'account', read: 'organization' },
                },
              ],
            },
          })
          .expect(200);
        await as(caller.apiKey).get(path).expect(200);
        const started = Date.now();
        await waitFor(async () => (await inSecond()).status === 200, 5000);
        expect(Date.now() - started).toBeLessThan(5000);
      } finally {
        await second.kill('SIGTERM');
        await rm(workDir, { recursive: true, force: true });
      }
    });
  });

  describe('workflows', () => {
    it('refuse a method whose requirements the roles do not meet (403), and act as the caller', async () => {
      const account = (
        await as(admin)
          .post('/rest/entity/account', { properties: { name: 'wf' } })
          .expect(200)
      ).body.key;
      const invoice = (
        await as(admin)
          .post('/rest/entity/invoice', { properties: { id_account: account } })
          .expect(200)
      ).body.key;
      const issue = (apiKey: string) =>
        as(apiKey).post('/rest/workflow/invoicing/issue', { invoiceKey: invoice });
      const reader = await user(units.child, [
        (await makeRole({ invoice: { read: 'organization' } })).name,
      ]);
      const refused = await issue(reader.apiKey).expect(403);
      expect(refused.body.detail).toBe('invoicing.issue needs write on invoice');
      // Write at user depth: the administrator's invoice is beyond it, as if missing.
      const ownWriter = await user(units.child, [
        (await makeRole({ invoice: { read: 'user', write: 'user' } })).name,
      ]);
      await issue(ownWriter.apiKey).expect(404);
      const writer = await user(units.child, [
        (await makeRole({ invoice: { read: 'organization', write: 'organization' } })).name,
      ]);
      expect((await issue(writer.apiKey).expect(200)).body.status).toBe('issued');
      const listed = await as(reader.apiKey).get('/rest/workflow').expect(200);
      const invoicing = listed.body.find((w: { name: string }) => w.name === 'invoicing');
      expect(invoicing.methods.find((m: { name: string }) => m.name === 'issue').requires).toEqual({
        invoice: 'write',
      });
    });
  });

  describe('GET /rest/metadata/privileges', () => {
    it('tells the caller its roles, depths per type and action, and secured properties', async () => {
      const role = await makeRole(
        { account: { create: 'user', read: 'business_unit_tree', write: 'business_unit' } },
        [{ entity_name: 'account', property: 'credit_limit', read: true, update: false }],
      );
      const caller = await user(units.child, [role.name]);
      const { body } = await as(caller.apiKey).get('/rest/metadata/privileges').expect(200);
      expect(body.roles).toEqual([role.name]);
      expect(body.entities.account).toEqual({
        create: 'user',
        read: 'business_unit_tree',
        write: 'business_unit',
        delete: 'none',
        securedProperties: { credit_limit: { read: true, update: false } },
      });
      expect(body.entities.invoice).toMatchObject({ read: 'none' });
      expect(body.entities.role).toEqual({
        create: 'none',
        read: 'organization',
        write: 'none',
        delete: 'none',
        securedProperties: {},
      });
      expect(body.entities).not.toHaveProperty('invoice_line');
      const asAdmin = await as(admin).get('/rest/metadata/privileges').expect(200);
      expect(asAdmin.body.entities.account).toMatchObject({
        delete: 'organization',
        securedProperties: { credit_limit: { read: true, update: true } },
      });
    });
  });

  describe('a type only administrators change, granted by name to a role', () => {
    it('is read as granted, and changed by none but administrators, whatever the role says', async () => {
      const role = await makeRole({
        webhook: {
          create: 'organization',
          read: 'organization',
          write: 'organization',
          delete: 'organization',
        },
        file: { create: 'organization', read: 'organization' },
      });
      const caller = await user(units.child, [role.name]);
      const { body } = await as(caller.apiKey).get('/rest/metadata/privileges').expect(200);
      // Before: create, write and delete of webhook said `organization`, and the console
      // showed the webhook screens to a member whose every action was then a 403.
      expect(body.entities.webhook).toEqual({
        create: 'none',
        read: 'organization',
        write: 'none',
        delete: 'none',
        securedProperties: {},
      });
      // A type its own routes write (files, through /storage) is as the role says.
      expect(body.entities.file).toMatchObject({ create: 'organization', read: 'organization' });
      // The change log: nothing writes it.
      expect(body.entities.change_log).toMatchObject({
        create: 'none',
        write: 'none',
        delete: 'none',
      });
      const refused = await as(caller.apiKey)
        .post('/rest/webhooks', {
          name: 'Not mine',
          url: 'https://192.0.2.1/x',
          events: 'account.created',
        })
        .expect(403);
      expect(refused.body).toEqual({ detail: 'Only administrators may change webhook' });
    });
  });

  describe('storage', () => {
    it('needs read on a file to download it, write to add a version, create for a new one', async () => {
      const upload = (apiKey: string, id?: number) => {
        const r = request(t.http).post('/storage').set('X-API-Key', apiKey);
        if (id !== undefined) r.field('id', String(id));
        return r.attach('file', Buffer.from('hello'), 'a.txt');
      };
      const file = (await upload(admin).expect(201)).body.id;
      const reader = await user(units.child, [
        (await makeRole({ file: { read: 'organization' } })).name,
      ]);
      const nobody = await user(units.child, [(await makeRole({ file: { read: 'none' } })).name]);
      await request(t.http).get(`/storage?id=${file}`).set('X-API-Key', reader.apiKey).expect(200);
      await request(t.http).get(`/storage?id=${file}`).set('X-API-Key', nobody.apiKey).expect(404);
      await upload(reader.apiKey, file).expect(403);
      await upload(nobody.apiKey, file).expect(404);
      await upload(reader.apiKey).expect(403);
    });
  });
});
