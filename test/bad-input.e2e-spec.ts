import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { apiKeyUser, createTestApp, login, TestApp } from './helpers/test-app';

const LINES = 'invoice_invoice_line';

/** Bad input is a 4xx `{detail}` that says what was wrong, changes nothing, and echoes nothing. */
describe('bad input', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ key } = await apiKeyUser(t));
  });
  afterAll(() => t.close());

  const count = async (table: string) =>
    Number((await t.dataSource.query(`SELECT count(*) AS n FROM "${table}"`))[0].n);

  describe('a NUL character (U+0000) in any string is a 400 naming the field', () => {
    it('in entity properties and child properties, storing nothing', async () => {
      const [accounts, invoices] = [await count('account'), await count('invoice')];
      const account = await request(t.http)
        .post('/rest/entity/account')
        .set('X-API-Key', key)
        .send({ properties: { name: 'Null\u0000 SRL' } })
        .expect(400);
      expect(account.body).toEqual({
        detail: 'properties.name contains a NUL character (U+0000), which text cannot hold',
      });
      const { key: accountKey } = (
        await request(t.http)
          .post('/rest/entity/account')
          .set('X-API-Key', key)
          .send({ properties: { name: 'Plain SRL' } })
          .expect(200)
      ).body;
      const invoice = await request(t.http)
        .post('/rest/entity/invoice')
        .set('X-API-Key', key)
        .send({
          properties: { id_account: accountKey },
          children: {
            [LINES]: [
              { properties: { quantity: 1, unit_price: '1.00', description: 'fine' } },
              { properties: { quantity: 1, unit_price: '1.00', description: 'b\u0000d' } },
            ],
          },
        })
        .expect(400);
      expect(invoice.body.detail).toMatch(
        new RegExp(`^children\\.${LINES}\\[1\\]\\.properties\\.description contains a NUL`),
      );
      const update = await request(t.http)
        .post(`/rest/entity/account/${accountKey}`)
        .set('X-API-Key', key)
        .send({ properties: { email: 'a@b\u0000.example' } })
        .expect(400);
      expect(update.body.detail).toMatch(/^properties\.email contains a NUL/);
      expect(await count('account')).toBe(accounts + 1);
      expect(await count('invoice')).toBe(invoices);
    });

    it('in the user or password of POST /auth, unauthenticated, as JSON or as a form', async () => {
      for (const [field, body] of [
        ['user', { user: 'ad\u0000min', password: TEST_ADMIN_PASSWORD }],
        ['password', { user: 'admin', password: `${TEST_ADMIN_PASSWORD}\u0000` }],
      ] as const) {
        const json = await request(t.http).post('/auth').send(body).expect(400);
        expect(json.body).toEqual({
          detail: expect.stringMatching(new RegExp(`^${field} contains a NUL`)),
        });
        const form = await request(t.http).post('/auth').type('form').send(body).expect(400);
        expect(form.body.detail).toMatch(new RegExp(`^${field} contains a NUL`));
      }
      await login(t, 'admin', TEST_ADMIN_PASSWORD); // and no failure was counted against it
    });

    it('in the name of an API key and in the fields of a password change', async () => {
      const session = await login(t, 'admin', TEST_ADMIN_PASSWORD);
      const before = await count('api_key');
      const created = await request(t.http)
        .post('/auth/api-keys')
        .set('Cookie', session.cookie)
        .set('X-CSRF-Token', session.csrfToken)
        .send({ name: 'job\u0000' })
        .expect(400);
      expect(created.body.detail).toMatch(/^name contains a NUL/);
      expect(await count('api_key')).toBe(before);
      const change = await request(t.http)
        .post('/auth/password')
        .set('Cookie', session.cookie)
        .set('X-CSRF-Token', session.csrfToken)
        .type('form')
        .send({
          'current-password': TEST_ADMIN_PASSWORD,
          'set-password': 'new\u0000password',
          'confirm-password': 'new\u0000password',
        })
        .expect(400);
      expect(change.body.detail).toMatch(/^set-password contains a NUL/);
    });

    it('in a FETCH string, at its line and column', async () => {
      for (const path of ['/rest/fetch', '/rest/fetch/parse']) {
        const { body } = await request(t.http)
          .post(path)
          .set('X-API-Key', key)
          .type('text/plain')
          .send("FETCH account (key)\nWHERE name = 'a\u0000b'")
          .expect(400);
        expect(body).toEqual({
          detail: expect.stringContaining('a string holds a NUL character (U+0000)'),
          line: 2,
          column: 16,
        });
      }
    });

    it('in a field name, without echoing it', async () => {
      const { body } = await request(t.http)
        .post('/rest/entity/account')
        .set('X-API-Key', key)
        .send({ properties: { ['na\u0000me']: 'x' } })
        .expect(400);
      expect(body.detail).toBe(
        'A field name in properties contains a NUL character (U+0000), which text cannot hold',
      );
    });
  });

  describe('a lone surrogate (a JSON \\ud800 escape: no Unicode character) is a 400 naming the field', () => {
    const problem = (code: string) =>
      `contains an unpaired surrogate (U+${code}), which is not a Unicode character`;

    it('in the user or password of POST /auth, counted against no one', async () => {
      const failures = async () =>
        Number(
          (
            await t.dataSource.query(
              `SELECT count(*) AS n FROM change_log WHERE operation = 'sign_in_failed'`,
            )
          )[0].n,
        );
      const before = await failures();
      const user = await request(t.http)
        .post('/auth')
        .send({ user: 'a\ud800b', password: 'x' })
        .expect(400);
      expect(user.body).toEqual({ detail: `user ${problem('D800')}` });
      const password = await request(t.http)
        .post('/auth')
        .send({ user: 'admin', password: `${TEST_ADMIN_PASSWORD}\udfff` })
        .expect(400);
      expect(password.body).toEqual({ detail: `password ${problem('DFFF')}` });
      expect(await failures()).toBe(before);
      await login(t, 'admin', TEST_ADMIN_PASSWORD);
    });

    it('in entity properties, child properties and field names, storing nothing', async () => {
      const [accounts, invoices] = [await count('account'), await count('invoice')];
      const account = await request(t.http)
        .post('/rest/entity/account')
        .set('X-API-Key', key)
        .send({ properties: { name: 'Lone \udc00 SRL' } })
        .expect(400);
      expect(account.body).toEqual({ detail: `properties.name ${problem('DC00')}` });
      const { key: accountKey } = (
        await request(t.http)
          .post('/rest/entity/account')
          .set('X-API-Key', key)
          .send({ properties: { name: 'Paired 😀 SRL' } })
          .expect(200)
      ).body;
      const invoice = await request(t.http)
        .post('/rest/entity/invoice')
        .set('X-API-Key', key)
        .send({
          properties: { id_account: accountKey },
          children: {
            [LINES]: [{ properties: { quantity: 1, unit_price: '1.00', description: '\ud83d!' } }],
          },
        })
        .expect(400);
      expect(invoice.body).toEqual({
        detail: `children.${LINES}[0].properties.description ${problem('D83D')}`,
      });
      const name = await request(t.http)
        .post(`/rest/entity/account/${accountKey}`)
        .set('X-API-Key', key)
        .send({ properties: { ['na\ud800me']: 'x' } })
        .expect(400);
      expect(name.body).toEqual({ detail: `A field name in properties ${problem('D800')}` });
      const stored = await request(t.http)
        .get(`/rest/entity/account/${accountKey}`)
        .set('X-API-Key', key)
        .expect(200);
      expect(stored.body.properties.name).toBe('Paired 😀 SRL');
      expect(await count('account')).toBe(accounts + 1);
      expect(await count('invoice')).toBe(invoices);
    });
  });

  describe('path keys are decimal digits only', () => {
    it.each(['0x10', '1e1', '0b11', '0o17', '+2', '%203', '-1', '1.0', '1_0'])(
      'answers 400 to %s for read, write and delete, and changes nothing',
      async (path) => {
        const before = await count('account');
        for (const send of [
          () => request(t.http).get(`/rest/entity/account/${path}`),
          () => request(t.http).post(`/rest/entity/account/${path}`).send({ properties: {} }),
          () => request(t.http).delete(`/rest/entity/account/${path}`),
          () => request(t.http).get(`/storage/${path}/versions`),
          () => request(t.http).delete(`/auth/api-keys/${path}`),
        ]) {
          const response = await send().set('X-API-Key', key).expect(400);
          expect(response.body).toEqual({
            detail: expect.stringMatching(/must be a non-negative integer/),
          });
        }
        expect(await count('account')).toBe(before);
      },
    );
  });

  describe('refusals made before routing are {detail} too, and echo nothing', () => {
    it('answers a URL with a bad % escape with 400, signed in or not', async () => {
      for (const agent of [
        request(t.http).get('/rest/entity/account/%'),
        request(t.http).get('/rest/entity/account/%zz').set('X-API-Key', key),
      ]) {
        const { body } = await agent.expect(400);
        expect(body).toEqual({ detail: expect.stringMatching(/not a valid URL/) });
      }
    });

    it('answers an unknown route with 404 without repeating its URL', async () => {
      const { body } = await request(t.http)
        .post('/auth/apikey?apiKey=atr_secret_value')
        .set('X-API-Key', key)
        .expect(404);
      expect(body).toEqual({ detail: 'No route matches this method and path' });
    });

    it('answers a path parameter over the limit with 414', async () => {
      const long = '1'.repeat(5000);
      const { body } = await request(t.http).get(`/rest/entity/account/${long}`).expect(414);
      expect(body).toEqual({ detail: expect.any(String) });
      expect(JSON.stringify(body)).not.toContain('1111111111');
    });

    it.each([
      ['a 20 KB header', { 'X-Big': 'a'.repeat(20_000) }, '/auth'],
      ['a 100 KB URL', {}, `/auth?x=${'b'.repeat(100_000)}`],
    ])('answers %s with 431', async (_what, headers, path) => {
      const { status, body } = await rawGet(t, path, headers);
      expect(status).toBe(431);
      expect(JSON.parse(body)).toEqual({ detail: expect.stringMatching(/larger than/) });
      expect(body).not.toMatch(/aaaaaaaaaa|bbbbbbbbbb/);
    });
  });
});

/** A GET through node:http, reading whatever comes back before the server closes. */
function rawGet(
  t: TestApp,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const server = t.http.listening ? t.http : t.http.listen(0);
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, path, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
