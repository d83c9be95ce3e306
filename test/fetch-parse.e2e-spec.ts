import request from 'supertest';
import { apiKeyUser, createTestApp, sessionOfNewUser, TestApp } from './helpers/test-app';

const BOOT_TIMEOUT_MS = 60_000;
const SEED_QUERY = 'FETCH account (name, key AS id) ORDER BY name ASC LIMIT 10';

describe('POST /rest/fetch/parse', () => {
  let t: TestApp;
  let key: string;

  // jest-circus reads testTimeout from the global config only, not from the e2e project's.
  beforeAll(async () => {
    t = await createTestApp();
    ({ key } = await apiKeyUser(t));
  }, BOOT_TIMEOUT_MS);
  afterAll(() => t.close());

  const parse = (body: string, type = 'text/plain') =>
    request(t.http)
      .post('/rest/fetch/parse')
      .set('X-API-Key', key)
      .set('Content-Type', type)
      .send(body);

  it('answers 200 with the tree of the seed’s query', async () => {
    const { body } = await parse(SEED_QUERY).expect(200);
    expect(body).toEqual({
      fetch: [
        {
          entity: 'account',
          properties: [{ property: 'name' }, { property: 'key', alias: 'id' }],
          orderBy: [{ name: 'name', asc: true }],
          limit: 10,
        },
      ],
    });
  });

  it('answers a link block with its entity and `to` property', async () => {
    const { body } = await parse('FETCH account (name) { contact TO id_account (first_name) }')
      .set('Content-Type', 'text/plain; charset=utf-8')
      .expect(200);
    expect(body.fetch[0].links).toEqual([
      { entity: 'contact', to: 'id_account', properties: [{ property: 'first_name' }] },
    ]);
  });

  it('keeps non-ASCII strings intact', async () => {
    const { body } = await parse("FETCH account (name) WHERE name = 'Zoë ☕ 😀'").expect(200);
    expect(body.fetch[0].filter[0].conditions[0].value).toBe('Zoë ☕ 😀');
  });

  it('answers a syntax error with 400 {detail, line, column}', async () => {
    const { body } = await parse('FETCH invoice\n(COUNT(total FROM x))').expect(400);
    expect(body).toEqual({
      detail: 'line 2, column 14: expected ")" but found "FROM"',
      line: 2,
      column: 14,
    });
  });

  it('answers a tree rule broken with 400 and the item’s position', async () => {
    const { body } = await parse('FETCH invoice (status, SUM(total))').expect(400);
    expect(body).toMatchObject({ line: 1, column: 16 });
    expect(body.detail).toMatch(/"status" must be in GROUP BY/);
  });

  it('answers an empty body with 400', async () => {
    const { body } = await parse('').expect(400);
    expect(body).toEqual({ detail: 'line 1, column 1: the query is empty', line: 1, column: 1 });
    await parse('  -- nothing\n').expect(400);
  });

  it('answers nesting beyond the limits with 400, not 500', async () => {
    const deep = `FETCH e (x) WHERE ${'('.repeat(5000)}a = 1${')'.repeat(5000)}`;
    const { body } = await parse(deep).expect(400);
    expect(body.detail).toMatch(/parentheses are nested deeper than 32/);
  });

  it('accepts a body of FETCH_MAX_QUERY_BYTES and answers 413 {detail} one byte over', async () => {
    const query = `${SEED_QUERY}\n-- `;
    const exact = query + 'x'.repeat(65536 - Buffer.byteLength(query));
    await parse(exact).expect(200);
    const { body } = await parse(`${exact}x`).expect(413);
    expect(body).toEqual({ detail: expect.any(String) });
  });

  it('answers a body that is not text/plain with 415', async () => {
    const { body } = await request(t.http)
      .post('/rest/fetch/parse')
      .set('X-API-Key', key)
      .send({ query: SEED_QUERY })
      .expect(415);
    expect(body).toEqual({ detail: 'Content-Type must be text/plain' });
    await parse(SEED_QUERY, 'text/html').expect(415);
  });

  it('answers 401 without credentials, before looking at the body', async () => {
    const { body } = await request(t.http)
      .post('/rest/fetch/parse')
      .set('Content-Type', 'text/plain')
      .send(SEED_QUERY)
      .expect(401);
    expect(body).toEqual({ detail: expect.any(String) });
    await request(t.http).post('/rest/fetch/parse').send({ query: 1 }).expect(401);
  });

  describe('with a session cookie', () => {
    let cookie: string;
    let csrfToken: string;

    beforeAll(async () => {
      ({ cookie, csrfToken } = await sessionOfNewUser(t));
    }, BOOT_TIMEOUT_MS);

    const post = () =>
      request(t.http)
        .post('/rest/fetch/parse')
        .set('Cookie', cookie)
        .set('Content-Type', 'text/plain');

    it('answers 403 without the X-CSRF-Token header', async () => {
      const { body } = await post().send(SEED_QUERY).expect(403);
      expect(body.detail).toMatch(/X-CSRF-Token/);
    });

    it('answers 200 with it', async () => {
      const { body } = await post().set('X-CSRF-Token', csrfToken).send(SEED_QUERY).expect(200);
      expect(body.fetch[0].entity).toBe('account');
    });
  });
});
