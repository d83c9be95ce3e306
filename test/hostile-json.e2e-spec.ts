import request from 'supertest';
import { HTTP_PLATFORMS } from '../src/config/environment';
import { JSON_MAX_DEPTH } from '../src/http/json-body';
import { FETCH_LIMITS } from '../src/fetch/fetch.validation';
import { apiKeyUser, createTestApp, TestApp } from './helpers/test-app';

const LINES = 'invoice_invoice_line';
const TOO_DEEP = new RegExp(`^The body nests deeper than ${JSON_MAX_DEPTH} levels`);

/** `levels` arrays one inside the other, as JSON text. */
const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** `inner` wrapped `levels` times in `open` … `close`, as text (no recursion to build it). */
const wrapped = (levels: number, open: string, inner: string, close: string) =>
  open.repeat(levels) + inner + close.repeat(levels);

/** A FETCH JSON query whose filter holds `levels` groups, each inside the last. */
const nestedFilter = (levels: number) =>
  `{"entity":"account","properties":[{"property":"key"}],"limit":1,"filter":[${wrapped(
    levels - 1,
    '{"type":"And","filter":[',
    '{"type":"And","conditions":[{"property":"key","operator":"ge","value":0}]}',
    ']}',
  )}]}`;

/** A FETCH JSON query with `levels` links, each inside the last. */
const nestedLinks = (levels: number) =>
  `{"entity":"account","properties":[{"property":"key"}],"limit":1,"links":[${wrapped(
    levels - 1,
    '{"entity":"account","from":"key","to":"key","links":[',
    '{"entity":"account","from":"key","to":"key"}',
    ']}',
  )}]}`;

/** An invoice whose one line holds a line, and so on, `levels` generations deep. */
const nestedChildren = (levels: number, accountKey: number) =>
  `{"properties":{"id_account":${accountKey}},"children":{"${LINES}":[${wrapped(
    levels - 1,
    `{"properties":{"quantity":1,"unit_price":"1.00"},"children":{"${LINES}":[`,
    '{"properties":{"quantity":1,"unit_price":"1.00","description":"leaf"}}',
    ']}}',
  )}]}}`;

/**
 * Hostile JSON is a 400 {detail} before any work is done, on both platforms: one depth
 * limit for every JSON body, prototype-poisoning members refused, and one spelling of a
 * key in a path.
 */
describe.each(HTTP_PLATFORMS)('hostile input on %s', (platform) => {
  let t: TestApp;
  let key: string;
  let accountKey: number;

  beforeAll(async () => {
    t = await createTestApp({ HTTP_PLATFORM: platform });
    ({ key } = await apiKeyUser(t));
    ({ key: accountKey } = (
      await request(t.http)
        .post('/rest/entity/account')
        .set('X-API-Key', key)
        .send({ properties: { name: `Hostile ${platform}` } })
        .expect(200)
    ).body);
  });
  afterAll(() => t.close());

  const count = async (table: string) =>
    Number((await t.dataSource.query(`SELECT count(*) AS n FROM "${table}"`))[0].n);
  const post = (path: string, text: string, contentType = 'application/json') =>
    request(t.http).post(path).set('X-API-Key', key).set('Content-Type', contentType).send(text);

  describe.each([10_000, 100_000])('a body nested %i levels deep', (levels) => {
    it.each([
      ['an entity create', '/rest/entity/account', `{"properties":{"name":${arrays(levels)}}}`],
      ['a workflow call', '/rest/workflow/invoicing/issue', `{"invoiceKey":${arrays(levels)}}`],
      ['a FETCH JSON tree', '/rest/fetch', `{"fetch":[${arrays(levels)}]}`],
    ])('in %s is a 400 naming the limit', async (_case, path, text) => {
      const accounts = await count('account');
      const { status, body } = await post(path, text);
      expect({ status, body }).toEqual({
        status: 400,
        body: { detail: expect.stringMatching(TOO_DEEP) },
      });
      expect(await count('account')).toBe(accounts);
    });
  });

  it('refuses an invoice with children 2,000 generations deep, storing nothing', async () => {
    const [invoices, lines] = [await count('invoice'), await count('invoice_line')];
    const { status, body } = await post('/rest/entity/invoice', nestedChildren(2000, accountKey));
    expect({ status, body }).toEqual({
      status: 400,
      body: { detail: expect.stringMatching(TOO_DEEP) },
    });
    expect([await count('invoice'), await count('invoice_line')]).toEqual([invoices, lines]);
  });

  it('reads children nested within the limit, and refuses the group a line does not have', async () => {
    const invoices = await count('invoice');
    const generations = Math.floor((JSON_MAX_DEPTH - 3) / 3);
    const text = nestedChildren(generations, accountKey);
    const { status, body } = await post('/rest/entity/invoice', text);
    expect(status).toBe(400);
    expect(body.detail).not.toMatch(TOO_DEEP);
    expect(body.detail).toMatch(
      new RegExp(`^${LINES}\\[0\\]\\.children\\.${LINES}: unknown child group`),
    );
    expect(await count('invoice')).toBe(invoices);
  });

  it('refuses a FETCH JSON tree of 5,000 nested filter groups or links', async () => {
    for (const query of [nestedFilter(5000), nestedLinks(5000)]) {
      const { status, body } = await post('/rest/fetch', query);
      expect({ status, body }).toEqual({
        status: 400,
        body: { detail: expect.stringMatching(TOO_DEEP) },
      });
    }
  });

  it("lets FETCH's own limits, not the body's, decide a tree at their edge", async () => {
    const depth = FETCH_LIMITS.parenthesesDepth + 1;
    const atEdge = await post('/rest/fetch', nestedFilter(depth));
    expect({ status: atEdge.status, body: atEdge.body }).toEqual({
      status: 200,
      body: expect.any(Array),
    });
    const deeper = await post('/rest/fetch', nestedFilter(depth + 1)).expect(400);
    expect(deeper.body.detail).toMatch(/filters are nested deeper than/);
    const links = await post('/rest/fetch', nestedLinks(FETCH_LIMITS.linkDepth + 2)).expect(400);
    expect(links.body.detail).toMatch(/links are nested deeper than/);
  });

  describe('prototype-poisoning members, refused as Fastify refuses them', () => {
    it.each([
      ['"__proto__"', '{"name":"poisoned","__proto__":{"isAdmin":true}}'],
      ['an escaped "__proto__"', '{"name":"poisoned","\\u005f_proto__":{"isAdmin":true}}'],
      ['"constructor" holding "prototype"', '{"name":"poisoned","constructor":{"prototype":{}}}'],
    ])('%s in an API-key create is a 400, and no key is made', async (_case, text) => {
      const keys = await count('api_key');
      const { status, body } = await post('/auth/api-keys', text);
      expect({ status, body }).toEqual({
        status: 400,
        body: { detail: expect.stringMatching(/^The body has a "__proto__" member/) },
      });
      expect(await count('api_key')).toBe(keys);
    });

    it('in a nested entity property too', async () => {
      const accounts = await count('account');
      const { status, body } = await post(
        '/rest/entity/account',
        '{"properties":{"name":"x","email":{"__proto__":{"polluted":true}}}}',
      );
      expect({ status, body }).toEqual({
        status: 400,
        body: { detail: expect.stringMatching(/^The body has a "__proto__" member/) },
      });
      expect(await count('account')).toBe(accounts);
    });
  });

  describe('a charset other than UTF-8', () => {
    it('is a 415, storing nothing', async () => {
      const accounts = await count('account');
      // (superagent sends a string as UTF-8 whatever the header says: the header decides.)
      const { status, body } = await post(
        '/rest/entity/account',
        '{"properties":{"name":"Caf\xe9"}}',
        'application/json; charset=iso-8859-1',
      );
      expect({ status, body }).toEqual({
        status: 415,
        body: { detail: 'A JSON body must be UTF-8' },
      });
      expect(await count('account')).toBe(accounts);
    });

    it('is read as UTF-8 when it names UTF-8, in any case', async () => {
      const { body, status } = await post(
        '/rest/entity/account',
        '{"properties":{"name":"Café ✓"}}',
        'application/json; charset=UTF-8',
      );
      expect({ status, body }).toEqual({
        status: 200,
        body: expect.objectContaining({ key: expect.any(Number) }),
      });
      const read = await request(t.http)
        .get(`/rest/entity/account/${body.key}`)
        .set('X-API-Key', key)
        .expect(200);
      expect(read.body.properties.name).toBe('Café ✓');
    });
  });

  it('answers a key with a leading zero with 400, not with the record of the plain key', async () => {
    await request(t.http)
      .get(`/rest/entity/account/${accountKey}`)
      .set('X-API-Key', key)
      .expect(200);
    for (const path of [
      `/rest/entity/account/0${accountKey}`,
      `/rest/entity/account/00${accountKey}`,
    ]) {
      const { status, body, headers } = await request(t.http).get(path).set('X-API-Key', key);
      expect({ status, body }).toEqual({
        status: 400,
        body: {
          detail: `key must be a non-negative integer without leading zeros, not "${path.split('/').pop()}"`,
        },
      });
      expect(headers.location).toBeUndefined();
    }
  });
});
