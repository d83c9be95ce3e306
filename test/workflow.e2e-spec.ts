import { Module } from '@nestjs/common';
import request from 'supertest';
import { Workflow, WorkflowMethod } from '../src/workflow/workflow.decorators';
import { WorkflowError } from '../src/workflow/workflow.errors';
import { WorkflowContext } from '../src/workflow/workflow.service';
import {
  apiKeyUser,
  createTestApp,
  seedAdmin,
  sessionOfNewUser,
  TestApp,
} from './helpers/test-app';

/** An application's own workflow: every argument type and every way to fail. */
@Workflow('testing')
class TestingWorkflow {
  @WorkflowMethod({
    arguments: [
      { name: 'text', type: 'string' },
      { name: 'count', type: 'integer' },
      { name: 'amount', type: 'decimal' },
      { name: 'at', type: 'datetime' },
      { name: 'flag', type: 'boolean' },
      { name: 'note', type: 'string', optional: true },
    ],
  })
  echo(text: string, count: number, amount: string, at: Date, flag: boolean, note?: string) {
    return { text, count, amount, at: at.toISOString(), flag, note: note ?? 'absent' };
  }

  @WorkflowMethod({ name: 'answer' })
  plainValue(): number {
    return 42;
  }

  @WorkflowMethod({ arguments: [{ name: 'name', type: 'string' }] })
  async failAfterWrite(name: string, { data }: WorkflowContext): Promise<never> {
    await data.create('account', { properties: { name } });
    throw new Error('connection string postgres://secret@db is wrong');
  }

  @WorkflowMethod({ arguments: [{ name: 'name', type: 'string' }] })
  async refuseAfterWrite(name: string, { data }: WorkflowContext): Promise<never> {
    await data.create('account', { properties: { name } });
    throw new WorkflowError(409, `${name} cannot be kept`);
  }

  @WorkflowMethod({ arguments: [{ name: 'accountKey', type: 'integer' }] })
  breakARule(accountKey: number, { data }: WorkflowContext) {
    return data.create('invoice', {
      properties: { id_account: accountKey },
      children: {
        invoice_invoice_line: [{ properties: { quantity: 0, unit_price: '1.00' } }],
      },
    });
  }

  @WorkflowMethod({ access: 'admin' })
  adminOnly({ identity }: WorkflowContext) {
    return { ranBy: identity.userName };
  }

  @WorkflowMethod({ roles: ['member'] })
  membersOnly({ identity }: WorkflowContext) {
    return { ranBy: identity.userName };
  }

  /** Users are written by administrators only, whatever a role says of them. */
  @WorkflowMethod({ requires: { user: 'write' } })
  usersWriter({ identity }: WorkflowContext) {
    return { ranBy: identity.userName };
  }
}

@Module({ providers: [TestingWorkflow] })
class TestingWorkflowModule {}

describe('/rest/workflow', () => {
  let t: TestApp;
  let key: string;
  let adminKey: string;

  beforeAll(async () => {
    t = await createTestApp({}, [TestingWorkflowModule]);
    ({ key } = await apiKeyUser(t));
    ({ key: adminKey } = await seedAdmin(t));
  });
  afterAll(() => t.close());

  const run = (path: string, body: unknown, apiKey = key) =>
    request(t.http)
      .post(`/rest/workflow/${path}`)
      .set('X-API-Key', apiKey)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
  const accountsNamed = async (name: string) =>
    (await t.dataSource.query(`SELECT 1 FROM account WHERE name = $1`, [name])).length;

  const good = {
    text: 'hello',
    count: 7,
    amount: '12.50',
    at: '2026-02-28T23:59:59',
    flag: false,
  };

  describe('arguments', () => {
    it('binds every type from the body, an optional one left out', async () => {
      const { body } = await run('testing/echo', good).expect(200);
      expect(body).toEqual({
        text: 'hello',
        count: 7,
        amount: '12.50',
        at: '2026-02-28T23:59:59.000Z',
        flag: false,
        note: 'absent',
      });
      const withNote = await run('testing/echo', { ...good, note: 'here', amount: 0.1 }).expect(
        200,
      );
      expect(withNote.body).toMatchObject({ note: 'here', amount: '0.1' });
    });

    it('keeps a decimal exact', async () => {
      const amount = '123456789012345678901234567890.123456789';
      expect((await run('testing/echo', { ...good, amount }).expect(200)).body.amount).toBe(amount);
    });

    it.each([
      ['text', 5, 'must be a string'],
      ['count', 1.5, 'must be an integer'],
      ['count', '7', 'must be an integer'],
      ['count', 2 ** 60, 'must be an integer'],
      ['amount', 'twelve', 'must be a decimal number'],
      ['amount', true, 'must be a decimal number'],
      ['at', '2026-02-30T10:00:00', 'must be a date-time YYYY-MM-DDThh:mm:ss'],
      ['at', '2026-02-28T10:00:00Z', 'must be a date-time YYYY-MM-DDThh:mm:ss'],
      ['at', '2026-02-28', 'must be a date-time YYYY-MM-DDThh:mm:ss'],
      ['at', '2026-02-28T24:00:00', 'must be a date-time YYYY-MM-DDThh:mm:ss'],
      ['flag', 'false', 'must be true or false'],
      ['note', 3, 'must be a string'],
    ])('answers 400 naming %s for %j', async (name, value, problem) => {
      const { body } = await run('testing/echo', { ...good, [name]: value }).expect(400);
      expect(body.detail).toBe(
        `Argument "${name}" of testing.echo ${problem}${problem.startsWith('must be a decimal') ? ' or a string of one, e.g. "12.50"' : ''}, not ${JSON.stringify(value)}`,
      );
    });

    it('answers 400 for a missing or unknown argument, naming it', async () => {
      const { text: _, ...withoutText } = good;
      expect((await run('testing/echo', withoutText).expect(400)).body.detail).toBe(
        'Argument "text" of testing.echo is required',
      );
      expect((await run('testing/echo', { ...good, colour: 'red' }).expect(400)).body.detail).toBe(
        'testing.echo has no argument "colour" (it takes text, count, amount, at, flag, note)',
      );
    });

    it('answers 400 for a body that is not a JSON object, or is missing', async () => {
      for (const body of [[1, 2], 'text', 42, null]) {
        const { body: error } = await run('testing/echo', body).expect(400);
        expect(error.detail).toMatch(/JSON object|could not|not valid|empty/i);
      }
      await request(t.http)
        .post('/rest/workflow/testing/echo')
        .set('X-API-Key', key)
        .set('Content-Type', 'application/json')
        .send('{"text":')
        .expect(400);
      await request(t.http)
        .post('/rest/workflow/testing/answer')
        .set('X-API-Key', key)
        .set('Content-Type', 'application/json')
        .expect(400);
    });

    it('answers 415 to a body that is not JSON', async () => {
      await request(t.http)
        .post('/rest/workflow/testing/echo')
        .set('X-API-Key', key)
        .set('Content-Type', 'text/plain')
        .send('text=hello')
        .expect(415);
    });
  });

  describe('results and failures', () => {
    it('wraps a result that is not an object as {result}', async () => {
      expect((await run('testing/answer', {}).expect(200)).body).toEqual({ result: 42 });
    });

    it('answers 404 for an unknown workflow or method', async () => {
      expect((await run('shipping/send', {}).expect(404)).body.detail).toBe(
        'Unknown workflow "shipping"',
      );
      expect((await run('testing/launch', {}).expect(404)).body.detail).toBe(
        'Workflow "testing" has no method "launch"',
      );
    });

    it('rolls everything back and answers 500 without internals when a method fails after a write', async () => {
      const name = `Rolled back ${Date.now()}`;
      const { body } = await run('testing/failAfterWrite', { name }).expect(500);
      expect(body).toEqual({
        detail: expect.stringMatching(/^Internal server error \(request id /),
      });
      expect(JSON.stringify(body)).not.toMatch(/secret|postgres/);
      expect(await accountsNamed(name)).toBe(0);
    });

    it('keeps the status of a workflow’s own error, and rolls back', async () => {
      const name = `Refused ${Date.now()}`;
      const { body } = await run('testing/refuseAfterWrite', { name }).expect(409);
      expect(body).toEqual({ detail: `${name} cannot be kept` });
      expect(await accountsNamed(name)).toBe(0);
    });

    it('answers a business rule failing inside it with the 424 record', async () => {
      const [{ key: accountKey }] = await t.dataSource.query(`SELECT key FROM account LIMIT 1`);
      const { body } = await run('testing/breakARule', { accountKey }).expect(424);
      expect(body).toMatchObject({
        eventName: 'onBeforeInsert',
        entityName: 'invoice',
        childEntityName: 'invoice_line',
        childPropertyName: 'quantity',
        childEntityIndex: 0,
      });
    });
  });

  describe('access', () => {
    it('answers 401 without credentials', async () => {
      await request(t.http)
        .post('/rest/workflow/testing/answer')
        .set('Content-Type', 'application/json')
        .send('{}')
        .expect(401);
      await request(t.http).get('/rest/workflow').expect(401);
    });

    it('answers 403 to a cookie session without the CSRF header, 200 with it', async () => {
      const session = await sessionOfNewUser(t);
      const post = () =>
        request(t.http)
          .post('/rest/workflow/testing/answer')
          .set('Cookie', session.cookie)
          .set('Content-Type', 'application/json');
      await post().send('{}').expect(403);
      await post().set('X-CSRF-Token', session.csrfToken).send('{}').expect(200);
    });

    it('runs an admin-only method for admins only', async () => {
      const { body } = await run('testing/adminOnly', {}).expect(403);
      expect(body.detail).toBe('Only administrators may run testing.adminOnly');
      expect((await run('testing/adminOnly', {}, adminKey).expect(200)).body).toEqual({
        ranBy: 'admin',
      });
    });

    it('runs a method that needs a role for holders of it (and administrators) only', async () => {
      const outsider = await apiKeyUser(t, { roles: [] });
      const { body } = await run('testing/membersOnly', {}, outsider.key).expect(403);
      expect(body.detail).toBe('testing.membersOnly needs one of the roles member');
      await run('testing/membersOnly', {}).expect(200);
      await run('testing/membersOnly', {}, adminKey).expect(200);
    });

    it('requires what the API would allow: writing users is for administrators, a role or not', async () => {
      // The member role grants write at organization depth on every type (`*`).
      const { body } = await run('testing/usersWriter', {}).expect(403);
      expect(body.detail).toBe('testing.usersWriter needs write on user');
      await run('testing/usersWriter', {}, adminKey).expect(200);
    });
  });

  it.each(['/rest/workflow', '/rest/metadata/workflow'])(
    'lists every workflow, its methods and their typed arguments at %s',
    async (path) => {
      const { body } = await request(t.http).get(path).set('X-API-Key', key).expect(200);
      expect(body).toEqual(
        expect.arrayContaining([
          {
            name: 'invoicing',
            methods: [
              {
                name: 'issue',
                access: 'everyone',
                requires: { invoice: 'write' },
                roles: [],
                arguments: [{ name: 'invoiceKey', type: 'integer', required: true }],
              },
              {
                name: 'summary',
                access: 'everyone',
                requires: { account: 'read', invoice: 'read' },
                roles: [],
                arguments: [
                  { name: 'accountKey', type: 'integer', required: true },
                  { name: 'from', type: 'datetime', required: true },
                  { name: 'to', type: 'datetime', required: true },
                ],
              },
            ],
          },
          expect.objectContaining({
            name: 'testing',
            methods: expect.arrayContaining([
              { name: 'answer', access: 'everyone', requires: {}, roles: [], arguments: [] },
              { name: 'adminOnly', access: 'admin', requires: {}, roles: [], arguments: [] },
              expect.objectContaining({
                name: 'echo',
                arguments: [
                  { name: 'text', type: 'string', required: true },
                  { name: 'count', type: 'integer', required: true },
                  { name: 'amount', type: 'decimal', required: true },
                  { name: 'at', type: 'datetime', required: true },
                  { name: 'flag', type: 'boolean', required: true },
                  { name: 'note', type: 'string', required: false },
                ],
              }),
            ]),
          }),
        ]),
      );
    },
  );

  describe('the demo workflow "invoicing"', () => {
    const draftKey = async () => {
      const [account] = await t.dataSource.query(
        `SELECT a.key FROM account a JOIN organization o ON o.key = a.id_organization
          WHERE o.name = 'Demo' LIMIT 1`,
      );
      const { body } = await request(t.http)
        .post('/rest/entity/invoice')
        .set('X-API-Key', key)
        .send({
          properties: { id_account: account.key },
          children: {
            invoice_invoice_line: [{ properties: { quantity: 2, unit_price: '5.00' } }],
          },
        })
        .expect(200);
      return body.key as number;
    };

    it('issues a draft: status issued, the year’s next number, today’s date', async () => {
      const invoiceKey = await draftKey();
      const year = new Date().getUTCFullYear();
      const [{ last }] = await t.dataSource.query(
        `SELECT max(number) AS last FROM invoice i JOIN organization o ON o.key = i.id_organization
          WHERE o.name = 'Demo' AND number LIKE $1`,
        [`INV-${year}-%`],
      );
      const expected = `INV-${year}-${String(Number((last ?? 'INV-0-0000').slice(9)) + 1).padStart(4, '0')}`;
      const { body } = await run('invoicing/issue', { invoiceKey }).expect(200);
      expect(body).toEqual({ status: 'issued', number: expected });
      const invoice = await request(t.http)
        .get(`/rest/entity/invoice/${invoiceKey}`)
        .set('X-API-Key', key)
        .expect(200);
      expect(invoice.body.properties).toMatchObject({ status: 'issued', number: expected });
      expect(Date.now() - Date.parse(invoice.body.properties.issue_date)).toBeLessThan(60_000);
    });

    it('refuses to issue what is not a draft (400), or does not exist (404)', async () => {
      const invoiceKey = await draftKey();
      await run('invoicing/issue', { invoiceKey }).expect(200);
      expect((await run('invoicing/issue', { invoiceKey }).expect(400)).body.detail).toBe(
        `invoice ${invoiceKey} is issued: only a draft can be issued`,
      );
      await run('invoicing/issue', { invoiceKey: 999999999 }).expect(404);
    });

    it('sums an account’s invoices issued or created in a range, as SQL does', async () => {
      const [{ key: accountKey }] = await t.dataSource.query(
        `SELECT a.key FROM account a JOIN organization o ON o.key = a.id_organization
          WHERE o.name = 'Demo' ORDER BY a.key LIMIT 1`,
      );
      const from = '2025-01-01T00:00:00';
      const to = '2025-12-31T23:59:59';
      const [expected] = await t.dataSource.query(
        `SELECT count(*)::int AS count, coalesce(sum(total), 0)::numeric(14,2)::text AS total
           FROM invoice WHERE id_account = $1
            AND (issue_date BETWEEN $2 AND $3 OR date_created BETWEEN $2 AND $3)`,
        [accountKey, `${from}Z`, `${to}Z`],
      );
      const { body } = await run('invoicing/summary', { accountKey, from, to }).expect(200);
      expect(body).toEqual(expected);
      expect(body.count).toBeGreaterThan(0);
      await run('invoicing/summary', { accountKey: 999999999, from, to }).expect(404);
    });
  });
});
