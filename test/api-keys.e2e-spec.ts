import request from 'supertest';
import { StatementCounter } from './helpers/statement-counter';
import { createSecondTestApp, createTestApp, createUser, login, TestApp } from './helpers/test-app';

/** The refusal of a key that was sent: unknown, expired or revoked look the same. */
const NOT_VALID = { detail: 'The API key is not valid (unknown, expired or revoked)' };

describe('/auth/api-keys', () => {
  let t: TestApp;
  let owner: { userName: string; password: string; key: number };
  let session: { cookie: string; csrfToken: string };

  const create = (body: object) =>
    request(t.http)
      .post('/auth/api-keys')
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrfToken)
      .send(body);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    session = await login(t, owner.userName, owner.password);
  });
  afterAll(() => t.close());

  it('creates a key whose secret is shown once, and lists it without the secret or its hash', async () => {
    const { body: created } = await create({ name: 'listing' }).expect(201);
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'listing',
      key: expect.any(String),
      expiresAt: null,
    });
    const { body: listed } = await request(t.http)
      .get('/auth/api-keys')
      .set('Cookie', session.cookie)
      .expect(200);
    const entry = listed.find((k: { id: number }) => k.id === created.id);
    expect(Object.keys(entry).sort()).toEqual([
      'createdAt',
      'expiresAt',
      'id',
      'lastUsedAt',
      'name',
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.key);
  });

  it('stores only a hash of the secret', async () => {
    const { body: created } = await create({ name: 'hashed' }).expect(201);
    const [row] = await t.dataSource.query(`SELECT secret_hash FROM api_key WHERE key = $1`, [
      created.id,
    ]);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.secret_hash).not.toContain(created.key);
  });

  it('authenticates by header and by query parameter as the key’s owner, and records the use', async () => {
    const { body: created } = await create({ name: 'use' }).expect(201);
    const byHeader = await request(t.http).get('/auth').set('X-API-Key', created.key).expect(200);
    expect(byHeader.body.userName).toBe(owner.userName);
    const byQuery = await request(t.http)
      .get(`/auth?apiKey=${encodeURIComponent(created.key)}`)
      .expect(200);
    expect(byQuery.body.userKey).toBe(owner.key);
    const [row] = await t.dataSource.query(`SELECT last_used_at FROM api_key WHERE key = $1`, [
      created.id,
    ]);
    expect(row.last_used_at).not.toBeNull();
  });

  it('looks a key up once for concurrent requests, then serves it from the cache', async () => {
    const { body: created } = await create({ name: 'concurrent' }).expect(201);
    const counter = await StatementCounter.attach(t);
    const statements = await counter.record(() =>
      Promise.all(
        Array.from({ length: 10 }, () =>
          request(t.http).get('/auth').set('X-API-Key', created.key).expect(200),
        ),
      ),
    );
    expect(statements.filter((s) => s.startsWith('UPDATE api_key'))).toHaveLength(1);
    const again = await counter.record(() =>
      request(t.http).get('/auth').set('X-API-Key', created.key),
    );
    expect(again).toEqual([]);
  });

  it('refuses an unknown key with 401 on a protected route, saying the key is not valid', async () => {
    for (const sent of [
      request(t.http).get('/auth/api-keys').set('X-API-Key', 'atr_not-a-key'),
      request(t.http).get('/auth/api-keys?apiKey=atr_not-a-key'),
    ]) {
      expect((await sent.expect(401)).body).toEqual(NOT_VALID);
    }
    // No key at all: what may be sent.
    expect((await request(t.http).get('/auth/api-keys').expect(401)).body).toEqual({
      detail: 'Authentication required: send an API key, a session cookie or a bearer token',
    });
    // Beside a valid session, a wrong key does not hide the session (the first match decides).
    await request(t.http)
      .get('/auth/api-keys')
      .set('X-API-Key', 'atr_not-a-key')
      .set('Cookie', session.cookie)
      .expect(200);
  });

  it('refuses a revoked key from the moment it is revoked', async () => {
    const { body: created } = await create({ name: 'revoked' }).expect(201);
    await request(t.http).get('/auth/api-keys').set('X-API-Key', created.key).expect(200);
    await request(t.http)
      .delete(`/auth/api-keys/${created.id}`)
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrfToken)
      .expect(204);
    const refused = await request(t.http).get('/auth/api-keys').set('X-API-Key', created.key);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(NOT_VALID);
    const { body: listed } = await request(t.http)
      .get('/auth/api-keys')
      .set('Cookie', session.cookie);
    expect(listed.map((k: { id: number }) => k.id)).not.toContain(created.id);
  });

  it('refuses an expired key, even one it has cached', async () => {
    // An hour ahead: the key works when first used, however slow the machine.
    const expiresAt = new Date(Date.now() + 60 * 60 * 1000);
    const { body: created } = await create({
      name: 'short-lived',
      expiresAt: expiresAt.toISOString(),
    }).expect(201);
    expect(created.expiresAt).toBe(expiresAt.toISOString());
    const use = () => request(t.http).get('/auth/api-keys').set('X-API-Key', created.key);
    // The app's clock (Date.now, which the cache reads), stopped a second before the expiry.
    const clock = jest.spyOn(Date, 'now').mockReturnValue(expiresAt.getTime() - 1000);
    try {
      // Looked up and cached for API_KEY_CACHE_SECONDS (5 s), but no longer than the key lives.
      await use().expect(200);
      // The database's clock cannot be moved: the key's expiry is moved to it instead.
      await t.dataSource.query(`UPDATE api_key SET expires_at = now() WHERE key = $1`, [
        created.id,
      ]);
      await use().expect(200); // from the cache, a second before the expiry
      clock.mockReturnValue(expiresAt.getTime());
      expect((await use().expect(401)).body).toEqual(NOT_VALID);
    } finally {
      clock.mockRestore();
    }
  });

  it('takes a revocation made elsewhere into account within the cache time', async () => {
    const other = await createSecondTestApp({ API_KEY_CACHE_SECONDS: '1' });
    try {
      const { body: created } = await create({ name: 'cached' }).expect(201);
      await request(other.http).get('/auth').set('X-API-Key', created.key).expect(200);
      await t.dataSource.query(`UPDATE api_key SET revoked_at = now() WHERE key = $1`, [
        created.id,
      ]);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await request(other.http).get('/auth/api-keys').set('X-API-Key', created.key).expect(401);
    } finally {
      await other.close();
    }
  });

  it('does not let a user revoke another user’s key (404)', async () => {
    const { body: created } = await create({ name: 'not yours' }).expect(201);
    const stranger = await createUser(t);
    const theirs = await login(t, stranger.userName, stranger.password);
    await request(t.http)
      .delete(`/auth/api-keys/${created.id}`)
      .set('Cookie', theirs.cookie)
      .set('X-CSRF-Token', theirs.csrfToken)
      .expect(404);
    await request(t.http).get('/auth').set('X-API-Key', created.key).expect(200);
  });

  it('validates the body: 400 naming the field, unknown fields and past expiries refused', async () => {
    expect((await create({}).expect(400)).body.detail).toMatch(/name/);
    expect((await create({ name: 'x', extra: 1 }).expect(400)).body.detail).toMatch(/extra/);
    expect((await create({ name: 'x', expiresAt: 'soon' }).expect(400)).body.detail).toMatch(
      /expiresAt/,
    );
    expect(
      (await create({ name: 'x', expiresAt: '2001-01-01T00:00:00Z' }).expect(400)).body.detail,
    ).toMatch(/future/);
  });

  it('answers 400 for a key id that is not a number', async () => {
    await request(t.http)
      .delete('/auth/api-keys/abc')
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrfToken)
      .expect(400);
  });
});
