import request from 'supertest';
import { AccessFixture, as } from './helpers/access';
import { DeafeningProxy } from './helpers/deafening-proxy';
import { waitFor } from './helpers/postmaster';
import { createTestApp, TestApp } from './helpers/test-app';

/**
 * The app caches each caller's privileges while it hears PostgreSQL's notifications of
 * role changes. A listening connection can go deaf without a word (a half-open link):
 * the app must notice within seconds and stop caching. The app talks to PostgreSQL
 * through a proxy that can silence that one connection.
 */
describe('the access-change listener going deaf', () => {
  let proxy: DeafeningProxy;
  let t: TestApp;
  let f: AccessFixture;

  beforeAll(async () => {
    proxy = await DeafeningProxy.start(process.env.ATRIUM_TEST_DATABASE_URL!);
    t = await createTestApp({}, [], proxy.url);
    f = await AccessFixture.create(t);
  });
  afterAll(async () => {
    // The proxy first: a deaf connection would keep the app's close waiting for it.
    await proxy.close();
    await t.close();
  });

  it('stops the caching within seconds: a role change is seen though its notification never came', async () => {
    const role = await f.role({ account: { read: 'none' } });
    const caller = await f.user(f.units.child, [role.name]);
    const account = (
      await as(t, f.admin)
        .post('/rest/entity/account', { properties: { name: 'unheard' } })
        .expect(200)
    ).body.key;
    const read = () =>
      request(t.http).get(`/rest/entity/account/${account}`).set('X-API-Key', caller.apiKey);
    await read().expect(404); // the caller's scope is cached now
    // A half-open link: no error, no end, no notification — only silence.
    expect(proxy.deafen('atrium access listener')).toBe(1);
    // Changed behind the app's back: the trigger notifies, the deaf listener never hears.
    await t.dataSource.query(`UPDATE role_privilege SET read = 'organization' WHERE id_role = $1`, [
      role.key,
    ]);
    const started = Date.now();
    await waitFor(async () => (await read()).status === 200, 5000);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
