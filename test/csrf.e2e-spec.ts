import request from 'supertest';
import { createTestApp, createUser, login, TestApp } from './helpers/test-app';

describe('CSRF for cookie sessions (spec 5.5)', () => {
  let t: TestApp;
  let user: { userName: string; password: string };

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
  });
  afterAll(() => t.close());

  const createKey = () => request(t.http).post('/auth/api-keys').send({ name: 'csrf test' });

  it('refuses a cookie-authenticated POST without X-CSRF-Token with 403', async () => {
    const { cookie } = await login(t, user.userName, user.password);
    const { body } = await createKey().set('Cookie', cookie).expect(403);
    expect(body.detail).toMatch(/X-CSRF-Token/);
  });

  it('refuses a wrong token with 403, and a token from another session', async () => {
    const mine = await login(t, user.userName, user.password);
    const other = await login(t, user.userName, user.password);
    await createKey().set('Cookie', mine.cookie).set('X-CSRF-Token', 'wrong').expect(403);
    await createKey().set('Cookie', mine.cookie).set('X-CSRF-Token', other.csrfToken).expect(403);
  });

  it('accepts the session’s token, which is the CSRF cookie’s value', async () => {
    const { cookie, csrfToken } = await login(t, user.userName, user.password);
    expect(cookie).toContain(`svc.rest.csrf.token=${csrfToken}`);
    await createKey().set('Cookie', cookie).set('X-CSRF-Token', csrfToken).expect(201);
  });

  it('tells a page of the session its token on GET /auth (a new tab has no login answer), uncached', async () => {
    const { cookie, csrfToken } = await login(t, user.userName, user.password);
    const info = await request(t.http).get('/auth').set('Cookie', cookie).expect(200);
    expect(info.headers['x-csrf-token']).toBe(csrfToken);
    expect(info.headers['cache-control']).toBe('no-store');
    // Not readable by another site: no CORS grant, even to an Origin that asks.
    const foreign = await request(t.http)
      .get('/auth')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .expect(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    await createKey()
      .set('Cookie', cookie)
      .set('X-CSRF-Token', info.headers['x-csrf-token'])
      .expect(201);
  });

  it('gives no token on GET /auth to an API key or to nobody', async () => {
    const anonymous = await request(t.http).get('/auth').expect(200);
    expect(anonymous.headers['x-csrf-token']).toBeUndefined();
    const { cookie, csrfToken } = await login(t, user.userName, user.password);
    const { body: key } = await createKey()
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrfToken)
      .expect(201);
    const byKey = await request(t.http).get('/auth').set('X-API-Key', key.key).expect(200);
    expect(byKey.body.userName).toBe(user.userName);
    expect(byKey.headers['x-csrf-token']).toBeUndefined();
  });

  it('accepts the cookie under either name of spec 5.5, since the token is the session’s', async () => {
    const { cookie, csrfToken } = await login(t, user.userName, user.password);
    const renamed = cookie.replace('svc.rest.csrf.token=', 'svc.csrf.token=');
    expect(renamed).toContain(`svc.csrf.token=${csrfToken}`);
    await createKey().set('Cookie', renamed).set('X-CSRF-Token', csrfToken).expect(201);
  });

  it('refuses a forged pair: a CSRF cookie and header that agree but are not the session’s', async () => {
    const { cookie } = await login(t, user.userName, user.password);
    for (const name of ['svc.rest.csrf.token', 'svc.csrf.token']) {
      const forged = cookie.replace(/svc\.rest\.csrf\.token=[^;]*/, `${name}=forged`);
      await createKey().set('Cookie', forged).set('X-CSRF-Token', 'forged').expect(403);
    }
  });

  it('checks DELETE as well as POST', async () => {
    const { cookie, csrfToken } = await login(t, user.userName, user.password);
    const { body } = await createKey()
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrfToken)
      .expect(201);
    await request(t.http).delete(`/auth/api-keys/${body.id}`).set('Cookie', cookie).expect(403);
    await request(t.http)
      .delete(`/auth/api-keys/${body.id}`)
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrfToken)
      .expect(204);
  });

  it('needs no token for safe methods', async () => {
    const { cookie } = await login(t, user.userName, user.password);
    await request(t.http).get('/auth/api-keys').set('Cookie', cookie).expect(200);
  });

  it('needs no token for API-key requests', async () => {
    const { cookie, csrfToken } = await login(t, user.userName, user.password);
    const { body } = await createKey()
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrfToken)
      .expect(201);
    await createKey().set('X-API-Key', body.key).expect(201);
  });

  it('exempts POST /auth itself, even with a live session cookie', async () => {
    const { cookie } = await login(t, user.userName, user.password);
    await request(t.http)
      .post('/auth')
      .set('Cookie', cookie)
      .send({ user: user.userName, password: user.password })
      .expect(200);
  });
});
