import request from 'supertest';
import { apiKeyFor, createTestApp, createUser, login, TestApp } from './helpers/test-app';

describe('POST /auth/password', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const change = (
    credentials: { cookie: string; csrfToken: string },
    form: Record<string, string>,
  ) =>
    request(t.http)
      .post('/auth/password')
      .set('Cookie', credentials.cookie)
      .set('X-CSRF-Token', credentials.csrfToken)
      .type('form')
      .send(form);

  it('changes the password (204) and ends the user’s other sessions, keeping this one', async () => {
    const user = await createUser(t);
    const current = await login(t, user.userName, user.password);
    const other = await login(t, user.userName, user.password);
    await change(current, {
      'current-password': user.password,
      'set-password': 'a-new-password',
      'confirm-password': 'a-new-password',
    }).expect(204);

    await request(t.http).get('/auth/api-keys').set('Cookie', current.cookie).expect(200);
    await request(t.http).get('/auth/api-keys').set('Cookie', other.cookie).expect(401);
    await request(t.http)
      .post('/auth')
      .send({ user: user.userName, password: user.password })
      .expect(401);
    await request(t.http)
      .post('/auth')
      .send({ user: user.userName, password: 'a-new-password' })
      .expect(200);
  });

  it('moves the user record’s date_updated, so an ETag read before no longer matches', async () => {
    const user = await createUser(t);
    const admin = await createUser(t, { isAdmin: true });
    const adminKey = await apiKeyFor(t, admin.key);
    const read = () =>
      request(t.http).get(`/rest/entity/user/${user.key}`).set('X-API-Key', adminKey).expect(200);
    const before = await read();
    const session = await login(t, user.userName, user.password);
    await change(session, {
      'current-password': user.password,
      'set-password': 'a-new-password',
      'confirm-password': 'a-new-password',
    }).expect(204);

    const after = await read();
    expect(Date.parse(after.body.properties.date_updated)).toBeGreaterThan(
      Date.parse(before.body.properties.date_updated),
    );
    await request(t.http)
      .post(`/rest/entity/user/${user.key}`)
      .set('X-API-Key', adminKey)
      .set('If-Match', before.headers.etag)
      .send({ properties: { full_name: 'Renamed' } })
      .expect(412);
  });

  it('ends the user’s sessions when an administrator sets the password; API keys stay', async () => {
    const user = await createUser(t);
    const session = await login(t, user.userName, user.password);
    const userKey = await apiKeyFor(t, user.key);
    const admin = await createUser(t, { isAdmin: true });
    const adminSession = await login(t, admin.userName, admin.password);
    const adminKey = await apiKeyFor(t, admin.key);
    const setPassword = (password: string, as = adminKey) =>
      request(t.http)
        .post(`/rest/entity/user/${user.key}`)
        .set('X-API-Key', as)
        .send({ properties: { password } });

    // Another change leaves the sessions alone.
    await request(t.http)
      .post(`/rest/entity/user/${user.key}`)
      .set('X-API-Key', adminKey)
      .send({ properties: { full_name: 'Renamed' } })
      .expect(200);
    await request(t.http).get('/auth/api-keys').set('Cookie', session.cookie).expect(200);

    await setPassword('set-by-an-admin').expect(200);
    await request(t.http).get('/auth/api-keys').set('Cookie', session.cookie).expect(401);
    await request(t.http).get('/auth/api-keys').set('X-API-Key', userKey).expect(200);
    await request(t.http).get('/auth/api-keys').set('Cookie', adminSession.cookie).expect(200);
    await login(t, user.userName, 'set-by-an-admin');

    // An administrator setting their own password keeps the session doing it.
    const otherAdminSession = await login(t, admin.userName, admin.password);
    await request(t.http)
      .post(`/rest/entity/user/${admin.key}`)
      .set('Cookie', adminSession.cookie)
      .set('X-CSRF-Token', adminSession.csrfToken)
      .send({ properties: { password: 'admin-sets-own' } })
      .expect(200);
    await request(t.http).get('/auth/api-keys').set('Cookie', adminSession.cookie).expect(200);
    await request(t.http).get('/auth/api-keys').set('Cookie', otherAdminSession.cookie).expect(401);
  });

  it('answers 400 when the confirmation differs, and changes nothing', async () => {
    const user = await createUser(t);
    const credentials = await login(t, user.userName, user.password);
    const { body } = await change(credentials, {
      'current-password': user.password,
      'set-password': 'a-new-password',
      'confirm-password': 'another-password',
    }).expect(400);
    expect(body.detail).toMatch(/confirm-password/);
    await request(t.http)
      .post('/auth')
      .send({ user: user.userName, password: user.password })
      .expect(200);
  });

  it('answers 400 for a new password shorter than 8 characters', async () => {
    const user = await createUser(t);
    const credentials = await login(t, user.userName, user.password);
    const { body } = await change(credentials, {
      'current-password': user.password,
      'set-password': 'short',
      'confirm-password': 'short',
    }).expect(400);
    expect(body.detail).toMatch(/at least 8/);
  });

  it('answers 401 when the current password is wrong, and changes nothing', async () => {
    const user = await createUser(t);
    const credentials = await login(t, user.userName, user.password);
    await change(credentials, {
      'current-password': 'not-the-password',
      'set-password': 'a-new-password',
      'confirm-password': 'a-new-password',
    }).expect(401);
    await request(t.http)
      .post('/auth')
      .send({ user: user.userName, password: user.password })
      .expect(200);
  });

  it('counts wrong current passwords as failed logins: 429 once the user’s limit is reached', async () => {
    const user = await createUser(t);
    const session = await login(t, user.userName, user.password);
    const wrong = {
      'current-password': 'not-the-password',
      'set-password': 'a-new-password',
      'confirm-password': 'a-new-password',
    };
    // The default limit is 5 failures per user; login itself counted as none.
    for (let i = 0; i < 5; i++) await change(session, wrong).expect(401);
    const refused = await change(session, { ...wrong, 'current-password': user.password });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await request(t.http)
      .post('/auth')
      .send({ user: user.userName, password: user.password })
      .expect(429);
  });

  it('answers 401 without a user', async () => {
    await request(t.http)
      .post('/auth/password')
      .type('form')
      .send({
        'current-password': 'x',
        'set-password': 'a-new-password',
        'confirm-password': 'a-new-password',
      })
      .expect(401);
  });

  it('answers 403 without the CSRF header for a cookie session', async () => {
    const user = await createUser(t);
    const credentials = await login(t, user.userName, user.password);
    await change(
      { cookie: credentials.cookie, csrfToken: '' },
      {
        'current-password': user.password,
        'set-password': 'a-new-password',
        'confirm-password': 'a-new-password',
      },
    ).expect(403);
  });

  it('answers 400 when a field is missing', async () => {
    const user = await createUser(t);
    const credentials = await login(t, user.userName, user.password);
    const { body } = await change(credentials, { 'current-password': user.password }).expect(400);
    expect(body.detail).toMatch(/set-password/);
  });
});
