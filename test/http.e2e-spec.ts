import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import request from 'supertest';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { createSecondTestApp, createTestApp, TestApp } from './helpers/test-app';

describe('cross-cutting HTTP behaviour', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 401 {detail} on every protected route without credentials', async () => {
    const document = SwaggerModule.createDocument(t.app, new DocumentBuilder().build());
    const protectedRoutes = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => JSON.stringify(operation.security) !== '[{}]')
        .map(([method]) => ({ method, path: path.replace(/\{\w+\}/g, '1') })),
    );
    expect(protectedRoutes.length).toBeGreaterThanOrEqual(4);
    for (const { method, path } of protectedRoutes) {
      const agent = request(t.http) as unknown as Record<string, (p: string) => request.Test>;
      const response = await agent[method](path);
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
      expect(response.body).toEqual({ detail: expect.any(String) });
    }
  });

  it('serves GET /health with a database ping', async () => {
    const { body } = await request(t.http).get('/health').expect(200);
    expect(body.info.database.status).toBe('up');
  });

  it('answers GET /health with 503 {detail} naming the check when the database is gone', async () => {
    const other = await createSecondTestApp();
    try {
      await other.dataSource.destroy();
      const { body } = await request(other.http).get('/health').expect(503);
      expect(body).toEqual({ detail: expect.stringMatching(/^Unhealthy: database is down/) });
    } finally {
      await other.app.close().catch(() => undefined);
    }
  });

  it('serves the OpenAPI document at /docs with the security schemes', async () => {
    await request(t.http).get('/docs').expect(200);
    const { body } = await request(t.http).get('/docs-json').expect(200);
    expect(Object.keys(body.components.securitySchemes).sort()).toEqual([
      'apiKeyHeader',
      'apiKeyQuery',
      'csrf',
      'session',
    ]);
    expect(body.paths['/auth'].get.security).toEqual([{}]);
  });

  it('echoes X-Request-Id, and makes one when none is sent', async () => {
    const echoed = await request(t.http).get('/auth').set('X-Request-Id', 'trace-123').expect(200);
    expect(echoed.headers['x-request-id']).toBe('trace-123');
    const made = await request(t.http).get('/auth').expect(200);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends helmet’s security headers', async () => {
    const { headers } = await request(t.http).get('/auth').expect(200);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['x-powered-by']).toBeUndefined();
  });

  it('answers an unknown route with 404 {detail}', async () => {
    const { body } = await request(t.http).get('/nowhere').expect(404);
    expect(body).toEqual({ detail: expect.any(String) });
  });

  it('ignores X-Forwarded-* unless TRUST_PROXY is set', async () => {
    const { body } = await request(t.http)
      .get('/auth')
      .set('X-Forwarded-For', '203.0.113.9')
      .set('X-Forwarded-Proto', 'https')
      .expect(200);
    expect(body.clientAdress).not.toContain('203.0.113.9');
    expect(body.isSecure).toBe(false);
  });
});

describe('with TRUST_PROXY and a small BODY_LIMIT', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true', BODY_LIMIT: '1kb', SERVER_NAME: 'Edge' });
  });
  afterAll(() => t.close());

  it('reports the forwarded client address and protocol, and the configured name', async () => {
    const { body } = await request(t.http)
      .get('/auth')
      .set('X-Forwarded-For', '203.0.113.9')
      .set('X-Forwarded-Proto', 'https')
      .expect(200);
    expect(body).toMatchObject({ clientAdress: '203.0.113.9', isSecure: true, name: 'Edge' });
  });

  it('answers a body over the limit with 413 {detail}', async () => {
    const { body } = await request(t.http)
      .post('/auth')
      .send({ user: 'admin', password: 'x'.repeat(2000) })
      .expect(413);
    expect(body).toEqual({ detail: expect.stringMatching(/too large/) });
  });

  it('still accepts a body under the limit', async () => {
    await request(t.http)
      .post('/auth')
      .send({ user: 'admin', password: TEST_ADMIN_PASSWORD })
      .expect(200);
  });
});
