import request from 'supertest';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { apiKeyUser, createTestApp, login, TestApp } from './helpers/test-app';

/** Errors a newcomer meets first say what to send instead, and change nothing. */
describe('errors that say what to do', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ key } = await apiKeyUser(t));
  });
  afterAll(() => t.close());

  const accounts = async () =>
    Number((await t.dataSource.query(`SELECT count(*) AS n FROM account`))[0].n);

  describe('an unknown entity type names the nearest known one', () => {
    it.each([
      ['a read', () => request(t.http).get('/rest/entity/acount/1')],
      ['a create', () => request(t.http).post('/rest/entity/acount').send({ properties: {} })],
      ['an update', () => request(t.http).post('/rest/entity/acount/1').send({ properties: {} })],
      ['a delete', () => request(t.http).delete('/rest/entity/acount/1')],
      ['a history', () => request(t.http).get('/rest/entity/acount/1/history')],
      ['its metadata', () => request(t.http).get('/rest/metadata/entity/acount')],
    ])('in %s: 404 "did you mean"', async (_what, send) => {
      const { body } = await send().set('X-API-Key', key).expect(404);
      expect(body).toEqual({ detail: 'Unknown entity type "acount" (did you mean "account"?)' });
    });

    it('and no hint for a name near none', async () => {
      const { body } = await request(t.http)
        .get('/rest/entity/spaceship/1')
        .set('X-API-Key', key)
        .expect(404);
      expect(body).toEqual({ detail: 'Unknown entity type "spaceship"' });
    });
  });

  describe('methods the entity routes do not answer are 405, with Allow and the way instead', () => {
    const LIST_HINT =
      'lists are FETCH queries: POST /rest/fetch with a text/plain body such as "FETCH account (key) LIMIT 50"';
    const TYPE_HINT =
      'records are created by POST /rest/entity/account, changed (POST) and deleted at /rest/entity/account/{key}';
    const UPDATE_HINT =
      'updates are POST to /rest/entity/account/7, with the properties to change (the others stay as they are)';

    it.each([
      ['GET', '/rest/entity/account', 'POST', `GET is not answered here: ${LIST_HINT}`],
      ['PUT', '/rest/entity/account', 'POST', `PUT is not answered here: ${TYPE_HINT}`],
      ['PATCH', '/rest/entity/account', 'POST', `PATCH is not answered here: ${TYPE_HINT}`],
      ['DELETE', '/rest/entity/account', 'POST', `DELETE is not answered here: ${TYPE_HINT}`],
      [
        'PUT',
        '/rest/entity/account/7',
        'GET, POST, DELETE',
        `PUT is not answered here: ${UPDATE_HINT}`,
      ],
      [
        'PATCH',
        '/rest/entity/account/7',
        'GET, POST, DELETE',
        `PATCH is not answered here: ${UPDATE_HINT}`,
      ],
    ] as const)('%s %s', async (method, path, allow, detail) => {
      const before = await accounts();
      const send = () =>
        request(t.http)
          [method.toLowerCase() as 'get' | 'put' | 'patch' | 'delete'](path)
          .send({ properties: { name: 'Never written' } });
      const signedIn = await send().set('X-API-Key', key).expect(405);
      expect(signedIn.headers.allow).toBe(allow);
      expect(signedIn.body).toEqual({ detail });
      // Whoever asks: without credentials, or with a session's cookie but no CSRF token.
      await send().expect(405).expect('Allow', allow);
      const session = await login(t, 'admin', TEST_ADMIN_PASSWORD);
      await send().set('Cookie', session.cookie).expect(405);
      expect(await accounts()).toBe(before);
    });

    it('repeats no path segment that is not a name or a key', async () => {
      const { body } = await request(t.http)
        .put(`/rest/entity/${'Ab<c>'.repeat(3)}/1%20OR%201`)
        .expect(405);
      expect(body.detail).toContain('updates are POST to /rest/entity/{name}/{key},');
    });
  });

  describe('a record envelope with a key it does not have is a 400 naming the key', () => {
    it('a property sent beside "properties" instead of inside', async () => {
      const before = await accounts();
      const { body } = await request(t.http)
        .post('/rest/entity/account')
        .set('X-API-Key', key)
        .send({ name: 'Outside SRL' })
        .expect(400);
      expect(body).toEqual({
        detail:
          'account: unknown key "name": name is a property of account, sent inside "properties": {"properties": {"name": …}}',
      });
      expect(await accounts()).toBe(before);
    });

    it('any other key, on a create, an update and a child', async () => {
      const before = await accounts();
      const created = await request(t.http)
        .post('/rest/entity/account')
        .set('X-API-Key', key)
        .send({ properties: { name: 'Extra SRL' }, extra: 1 })
        .expect(400);
      expect(created.body).toEqual({
        detail:
          'account: unknown key "extra": a record has "properties" and "children" (and "entity_name")',
      });
      expect(await accounts()).toBe(before);
      const updated = await request(t.http)
        .post('/rest/entity/account/1')
        .set('X-API-Key', key)
        .send({ properties: { name: 'Renamed' }, propreties: {} })
        .expect(400);
      expect(updated.body.detail).toMatch(/^account: unknown key "propreties": /);
      const child = await request(t.http)
        .post('/rest/entity/invoice')
        .set('X-API-Key', key)
        .send({
          properties: { id_account: 1 },
          children: { invoice_invoice_line: [{ quantity: 1 }] },
        })
        .expect(400);
      expect(child.body.detail).toBe(
        'invoice_invoice_line[0]: unknown key "quantity": quantity is a property of invoice_line, sent inside "properties": {"properties": {"quantity": …}}',
      );
    });
  });
});
