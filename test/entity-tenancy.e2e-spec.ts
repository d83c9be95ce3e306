import request from 'supertest';
import { apiKeyUser, createOrganization, createTestApp, TestApp } from './helpers/test-app';

describe('entity tenancy and system entity types', () => {
  let t: TestApp;
  let demo: { key: string; userKey: number };
  let demoAdmin: { key: string; userKey: number };
  let other: { key: string; userKey: number; organizationKey: number };
  let demoAccount: number;

  const as = (apiKey: string) => ({
    get: (path: string) => request(t.http).get(path).set('X-API-Key', apiKey),
    post: (path: string, body: object) =>
      request(t.http).post(path).set('X-API-Key', apiKey).send(body),
    delete: (path: string) => request(t.http).delete(path).set('X-API-Key', apiKey),
  });

  beforeAll(async () => {
    t = await createTestApp();
    demo = await apiKeyUser(t);
    demoAdmin = await apiKeyUser(t, { isAdmin: true });
    const organization = await createOrganization(t);
    other = {
      ...(await apiKeyUser(t, { organizationKey: organization.organization.key, isAdmin: true })),
      organizationKey: organization.organization.key,
    };
    demoAccount = (
      await as(demo.key).post('/rest/entity/account', { properties: { name: 'Mine' } })
    ).body.key;
  });
  afterAll(() => t.close());

  it('makes another organization’s rows indistinguishable from missing ones (404)', async () => {
    await as(other.key).get(`/rest/entity/account/${demoAccount}`).expect(404);
    await as(other.key)
      .post(`/rest/entity/account/${demoAccount}`, { properties: { name: 'Theirs' } })
      .expect(404);
    await as(other.key).delete(`/rest/entity/account/${demoAccount}`).expect(404);
    const { body } = await as(demo.key).get(`/rest/entity/account/${demoAccount}`).expect(200);
    expect(body.properties.name).toBe('Mine');
  });

  it('refuses a lookup to another organization’s row (400)', async () => {
    const { body } = await as(other.key)
      .post('/rest/entity/contact', { properties: { last_name: 'Spy', id_account: demoAccount } })
      .expect(400);
    expect(body.detail).toMatch(/id_account: no account with key/);
  });

  it('stamps new rows with the caller’s organization, business unit and user', async () => {
    const key = (
      await as(other.key).post('/rest/entity/account', { properties: { name: 'Other' } })
    ).body.key;
    const { body } = await as(other.key).get(`/rest/entity/account/${key}`).expect(200);
    expect(body.properties).toMatchObject({
      id_organization: other.organizationKey,
      id_user: other.userKey,
    });
  });

  describe('user', () => {
    it('is readable by everyone in the organization, without any credential field', async () => {
      const { body } = await as(demo.key).get(`/rest/entity/user/${demoAdmin.userKey}`).expect(200);
      expect(body.properties).toMatchObject({ key: demoAdmin.userKey, is_admin: true });
      expect(Object.keys(body.properties)).not.toContain('password_hash');
      expect(Object.keys(body.properties)).not.toContain('password');
      expect(JSON.stringify(body)).not.toMatch(/scrypt/);
      await as(other.key).get(`/rest/entity/user/${demoAdmin.userKey}`).expect(404);
    });

    it('may be created by admins only; the password is stored hashed and works for login', async () => {
      const userName = `made_${Date.now()}`;
      const payload = {
        properties: { user_name: userName, full_name: 'Made Here', password: 'secret-pass-1' },
      };
      await as(demo.key).post('/rest/entity/user', payload).expect(403);
      const { body } = await as(demoAdmin.key).post('/rest/entity/user', payload).expect(200);
      const [row] = await t.dataSource.query(`SELECT password_hash FROM "user" WHERE key = $1`, [
        body.key,
      ]);
      expect(row.password_hash).toMatch(/^scrypt\$/);
      await request(t.http)
        .post('/auth')
        .send({ user: userName, password: 'secret-pass-1' })
        .expect(200);
    });

    it('refuses a short or missing password with 424 naming it, and a password hash sent as a property', async () => {
      const short = await as(demoAdmin.key)
        .post('/rest/entity/user', {
          properties: { user_name: `s_${Date.now()}`, full_name: 'S', password: 'short' },
        })
        .expect(424);
      expect(short.body).toMatchObject({
        eventName: 'onBeforeInsert',
        entityName: 'user',
        propertyName: 'password',
      });
      await as(demoAdmin.key)
        .post('/rest/entity/user', {
          properties: { user_name: `h_${Date.now()}`, full_name: 'H', password_hash: 'x' },
        })
        .expect(400);
      const none = await as(demoAdmin.key)
        .post('/rest/entity/user', { properties: { user_name: `n_${Date.now()}`, full_name: 'N' } })
        .expect(424);
      expect(none.body).toMatchObject({
        propertyName: 'password',
        detail: expect.stringMatching(/needs a password/),
      });
    });

    it('may not be updated or deleted by non-admins', async () => {
      await as(demo.key)
        .post(`/rest/entity/user/${demo.userKey}`, { properties: { is_admin: true } })
        .expect(403);
      await as(demo.key).delete(`/rest/entity/user/${demoAdmin.userKey}`).expect(403);
    });

    it('answers 409 for a user name that is taken', async () => {
      const { body } = await as(demoAdmin.key)
        .post('/rest/entity/user', {
          properties: { user_name: 'admin', full_name: 'Again', password: 'again-pass-1' },
        })
        .expect(409);
      expect(body.detail).toMatch(/user_name/);
    });
  });

  it('lets admins manage business units, others read them', async () => {
    const created = await as(demoAdmin.key)
      .post('/rest/entity/business_unit', { properties: { name: `Sales ${Date.now()}` } })
      .expect(200);
    await as(demo.key).get(`/rest/entity/business_unit/${created.body.key}`).expect(200);
    await as(demo.key)
      .post('/rest/entity/business_unit', { properties: { name: 'Nope' } })
      .expect(403);
    await as(demo.key)
      .post(`/rest/entity/business_unit/${created.body.key}`, { properties: { name: 'Nope' } })
      .expect(403);
    await as(demo.key).delete(`/rest/entity/business_unit/${created.body.key}`).expect(403);
    await as(other.key).get(`/rest/entity/business_unit/${created.body.key}`).expect(404);
  });

  it('shows the organization read-only', async () => {
    const { body } = await as(demo.key).get(`/rest/entity/user/${demo.userKey}`).expect(200);
    const organizationKey = body.properties.id_organization;
    const organization = await as(demo.key)
      .get(`/rest/entity/organization/${organizationKey}`)
      .expect(200);
    expect(organization.body.properties.name).toBe('Demo');
    await as(demoAdmin.key)
      .post(`/rest/entity/organization/${organizationKey}`, { properties: { name: 'Renamed' } })
      .expect(403);
    await as(other.key).get(`/rest/entity/organization/${organizationKey}`).expect(404);
  });
});
