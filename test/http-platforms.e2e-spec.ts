import { createHash } from 'node:crypto';
import { get as httpGet, IncomingHttpHeaders } from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { HTTP_PLATFORMS } from '../src/config/environment';
import { CONSOLE_DIST } from '../src/http/console-files';
import { binaryBody } from './helpers/binary-body';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { listen } from './helpers/console-browser';
import { apiKeyUser, createTestApp, TestApp } from './helpers/test-app';

const FETCH_LIMIT = 300;
const UPLOAD_LIMIT = 4096;

/**
 * The pieces each HTTP platform does its own way (src/http/), on both platforms in every
 * run, whichever HTTP_PLATFORM the rest of the suite runs on: multipart uploads, the
 * text/plain body and its own limit, range downloads, cookies, trust proxy, and what is
 * refused before routing.
 */
describe.each(HTTP_PLATFORMS)('on %s', (platform) => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({
      HTTP_PLATFORM: platform,
      TRUST_PROXY: '127.0.0.1',
      FETCH_MAX_QUERY_BYTES: String(FETCH_LIMIT),
      MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT),
    });
    ({ key } = await apiKeyUser(t));
  });
  afterAll(() => t.close());

  const upload = (bytes: Buffer) =>
    request(t.http).post('/storage').set('X-API-Key', key).attach('file', bytes, 'data.bin');

  it('runs on that platform', () => {
    expect(t.app.getHttpAdapter().getType()).toBe(platform);
  });

  describe('the console files', () => {
    /** The console's largest script, as the build wrote it. */
    const script = () => {
      const assets = join(CONSOLE_DIST, 'assets');
      const [largest] = readdirSync(assets)
        .filter((name) => name.endsWith('.js'))
        .sort((a, b) => statSync(join(assets, b)).size - statSync(join(assets, a)).size);
      return { path: `/console/assets/${largest}`, bytes: readFileSync(join(assets, largest)) };
    };
    /** The bytes as they came on the wire (supertest would decode them). */
    let url: string | undefined;
    const get = async (path: string, acceptEncoding: string) => {
      url ??= await listen(t);
      return new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        httpGet(`${url}${path}`, { headers: { 'Accept-Encoding': acceptEncoding } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            response.statusCode === 200
              ? resolve({ headers: response.headers, body: Buffer.concat(chunks) })
              : reject(new Error(`${path}: ${response.statusCode}`)),
          );
        }).on('error', reject);
      });
    };

    it.each([
      ['br, gzip', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const)(
      'sends the build’s precompressed file to Accept-Encoding %s',
      async (accepted, encoding, decode) => {
        const { path, bytes } = script();
        const response = await get(path, accepted);
        expect(response.headers['content-encoding']).toBe(encoding);
        expect(response.headers.vary).toMatch(/accept-encoding/i);
        expect(response.headers['content-type']).toMatch(/javascript/);
        const { body } = response;
        expect(body.length).toBeLessThan(bytes.length / 2);
        expect(decode(body).equals(bytes)).toBe(true);
      },
    );

    it('sends the file as it is to a client that takes no encoding', async () => {
      const { path, bytes } = script();
      const response = await get(path, 'identity');
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body.equals(bytes)).toBe(true);
    });
  });

  describe('multipart uploads', () => {
    it('stores the streamed bytes of a file', async () => {
      const bytes = Buffer.alloc(UPLOAD_LIMIT, 7);
      const { body } = await upload(bytes).expect(201);
      expect(body).toMatchObject({
        name: 'data.bin',
        size: UPLOAD_LIMIT,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
    });

    it('answers 413 {detail} one byte over MAX_UPLOAD_BYTES', async () => {
      const { body } = await upload(Buffer.alloc(UPLOAD_LIMIT + 1)).expect(413);
      expect(body).toEqual({ detail: expect.stringMatching(/larger than this server accepts/) });
    });

    it('answers 400 to a form cut short', async () => {
      const form =
        '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n' +
        'Content-Type: application/octet-stream\r\n\r\nabc';
      const { body } = await request(t.http)
        .post('/storage')
        .set('X-API-Key', key)
        .set('Content-Type', 'multipart/form-data; boundary=XX')
        .send(form)
        .expect(400);
      expect(body.detail).toMatch(/^The form could not be read as multipart\/form-data/);
    });
  });

  describe('text/plain FETCH bodies', () => {
    const fetch = (text: string) =>
      request(t.http)
        .post('/rest/fetch/parse')
        .set('X-API-Key', key)
        .set('Content-Type', 'text/plain')
        .send(text);

    it('reads the text up to FETCH_MAX_QUERY_BYTES, and answers 413 {detail} one byte over', async () => {
      const query = 'FETCH account (name)';
      const exact = `${query}${' '.repeat(FETCH_LIMIT - query.length)}`;
      const { body } = await fetch(exact).expect(200);
      expect(body.fetch[0].entity).toBe('account');
      const over = await fetch(`${exact} `).expect(413);
      expect(over.body).toEqual({ detail: expect.stringMatching(/too large/) });
    });

    it('holds JSON to BODY_LIMIT, not to the FETCH limit', async () => {
      const { body } = await fetch('FETCH account (name)').expect(200);
      const json = JSON.stringify(body) + ' '.repeat(FETCH_LIMIT);
      await request(t.http)
        .post('/rest/metadata/fetch')
        .set('X-API-Key', key)
        .set('Content-Type', 'application/json')
        .send(json)
        .expect(200);
    });
  });

  it('answers a Range with 206 and those bytes, an unsatisfiable one with 416', async () => {
    const { body: stored } = await upload(Buffer.from('0123456789')).expect(201);
    const ranged = (range: string) =>
      request(t.http)
        .get(`/storage?id=${stored.id}`)
        .set('X-API-Key', key)
        .set('Range', range)
        .buffer(true)
        .parse(binaryBody);
    const partial = await ranged('bytes=2-4').expect(206);
    expect(partial.headers['content-range']).toBe('bytes 2-4/10');
    expect((partial.body as Buffer).toString()).toBe('234');
    const refused = await ranged('bytes=40-50').expect(416);
    expect(refused.headers['content-range']).toBe('bytes */10');
  });

  it('sets the three session cookies at login, and clears them at logout', async () => {
    const login = await request(t.http)
      .post('/auth')
      .send({ user: 'admin', password: TEST_ADMIN_PASSWORD })
      .expect(200);
    const set = login.headers['set-cookie'] as unknown as string[];
    expect(set.map((line) => line.split('=')[0]).sort()).toEqual([
      'svc.rest.auth.token',
      'svc.rest.csrf.token',
      'svc.rest.locale',
    ]);
    expect(login.headers['x-csrf-token']).toEqual(expect.any(String));
    const cookie = set.map((line) => line.split(';')[0]).join('; ');
    const logout = await request(t.http).head('/auth?logout=1').set('Cookie', cookie).expect(200);
    const cleared = logout.headers['set-cookie'] as unknown as string[];
    expect(cleared).toHaveLength(3);
    for (const line of cleared)
      expect(line).toMatch(/=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970/);
  });

  it('takes the client address and scheme from a trusted proxy', async () => {
    const { body } = await request(t.http)
      .get('/auth')
      .set('X-Forwarded-For', '203.0.113.9')
      .set('X-Forwarded-Proto', 'https')
      .expect(200);
    expect(body).toMatchObject({ clientAdress: '203.0.113.9', isSecure: true });
  });

  it('sends the security headers and the request id on every answer, errors included', async () => {
    for (const path of ['/auth', '/no/such/route']) {
      const response = await request(t.http).get(path).set('X-Request-Id', 'trace-7');
      expect(response.headers).toMatchObject({
        'x-request-id': 'trace-7',
        'x-content-type-options': 'nosniff',
        'content-security-policy': expect.stringContaining("default-src 'self'"),
      });
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('routes as the other platform does: exact case, no trailing slash, HEAD as GET', async () => {
    await request(t.http).get('/AUTH').expect(404);
    await request(t.http).get('/auth/').expect(404);
    const head = await request(t.http).head('/rest/metadata/entity').set('X-API-Key', key);
    expect(head.status).toBe(200);
    expect(head.text).toBeUndefined();
  });

  it('refuses before routing in {detail}: a bad % escape (400), a path part over the limit (414)', async () => {
    const bad = await request(t.http).get('/rest/entity/account/%zz').set('X-API-Key', key);
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 400,
      body: { detail: expect.stringMatching(/not a valid URL/) },
    });
    const long = await request(t.http).get(`/rest/entity/account/${'1'.repeat(500)}`);
    expect(long.status).toBe(414);
    expect(long.body).toEqual({ detail: expect.any(String) });
  });

  it("adds no ETag of its own to a JSON answer (ETags are the app's: versions, digests)", async () => {
    const { headers } = await request(t.http)
      .get('/rest/metadata/entity')
      .set('X-API-Key', key)
      .expect(200);
    expect(headers.etag).toBeUndefined();
  });

  it('answers a JSON object whole, typed, with its length, and no 304 of its own', async () => {
    const created = await request(t.http)
      .post('/rest/entity/account')
      .set('X-API-Key', key)
      .send({ properties: { name: `Ünïcode ${platform}` } })
      .expect(200);
    const path = `/rest/entity/account/${created.body.key}`;
    const first = await request(t.http).get(path).set('X-API-Key', key).expect(200);
    // A matching If-None-Match: the body still comes, as on Fastify, which never had a 304.
    const again = await request(t.http)
      .get(path)
      .set('X-API-Key', key)
      .set('If-None-Match', first.headers.etag)
      .expect(200);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.headers['content-length']).toBe(String(Buffer.byteLength(again.text)));
    expect(again.body).toEqual(first.body);
    expect(again.body.properties.name).toBe(`Ünïcode ${platform}`);
    const head = await request(t.http)
      .head(path)
      .set('X-API-Key', key)
      .set('If-None-Match', first.headers.etag)
      .expect(200);
    expect(head.headers['content-length']).toBe(again.headers['content-length']);
  });

  it('answers an empty JSON body sent in chunks (no Content-Length) with 400, not as {}', async () => {
    // An update with `{}` changes nothing and is a 200: the body must not be read as `{}`.
    const { body: created } = await request(t.http)
      .post('/rest/entity/account')
      .set('X-API-Key', key)
      .send({ properties: { name: 'Chunked' } })
      .expect(200);
    const path = `/rest/entity/account/${created.key}`;
    await request(t.http).post(path).set('X-API-Key', key).send({}).expect(200);
    const response = await request(t.http)
      .post(path)
      .set('X-API-Key', key)
      .set('Content-Type', 'application/json')
      .set('Transfer-Encoding', 'chunked');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: expect.stringMatching(/empty/i) });
  });

  it('answers an empty JSON body with 400, and malformed JSON with 400', async () => {
    for (const body of ['', '{"user":']) {
      const response = await request(t.http)
        .post('/auth')
        .set('Content-Type', 'application/json')
        .send(body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.body).toEqual({ detail: expect.any(String) });
    }
  });
});
