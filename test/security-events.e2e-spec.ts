import request from 'supertest';
import { HTTP_PLATFORMS } from '../src/config/environment';
import { AccessFixture, as } from './helpers/access';
import {
  createOrganization,
  createUser,
  login,
  postFetch,
  TestApp,
  createTestApp,
} from './helpers/test-app';

interface EventRow {
  operation: string;
  entity: string;
  record_key: number | null;
  actor_name: string | null;
  via: string;
  detail: Record<string, unknown> | null;
  id_organization: number | null;
}

/**
 * Security events in the change log, beside the records' entries: sign-ins (failed too),
 * sign-outs, passwords, API keys, roles. Read as an administrator reads them: FETCH.
 */
describe.each(HTTP_PLATFORMS)('security events on %s', (platform) => {
  let t: TestApp;
  let fixture: AccessFixture;

  /** The events about a user (or tried under a name), oldest first. */
  const eventsOf = async (where: string): Promise<EventRow[]> =>
    (
      await postFetch(
        t,
        fixture.admin,
        `FETCH change_log (operation, entity, record_key, actor_name, via, detail, id_organization)
          WHERE ${where} ORDER BY key`,
      ).expect(200)
    ).body;

  beforeAll(async () => {
    // Failed sign-ins come from addresses of their own (X-Forwarded-For from loopback): the
    // failures an address may make are counted across the whole suite's database.
    t = await createTestApp({
      HTTP_PLATFORM: platform,
      TRUST_PROXY: '127.0.0.1',
      // A webhook pointed at loopback, for an event no test makes: nothing is sent.
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    });
    fixture = await AccessFixture.create(t);
  });
  afterAll(() => t.close());

  it('logs a sign-in, a failed one under a known and an unknown name, and a sign-out', async () => {
    const user = await createUser(t);
    const address = `192.0.2.${user.key % 250}`;
    const failed = (name: string) =>
      request(t.http)
        .post('/auth')
        .set('X-Forwarded-For', address)
        .send({ user: name, password: 'wrong-password' })
        .expect(401);
    await failed(user.userName);
    const unknown = `nobody_${user.key}`;
    await failed(unknown);
    const session = await login(t, user.userName, user.password);
    await request(t.http).head('/auth?logout=1').set('Cookie', session.cookie).expect(200);

    const events = await eventsOf(`entity = 'user' AND record_key = ${user.key}`);
    expect(events.map((e) => e.operation)).toEqual([
      'created',
      'roles_changed',
      'sign_in_failed',
      'signed_in',
      'signed_out',
    ]);
    expect(events[2]).toMatchObject({
      actor_name: user.userName,
      detail: { strategy: 'password', address },
    });
    expect(events[3]).toMatchObject({ actor_name: user.userName, via: 'session' });
    // An unknown name belongs to no organization: no administrator's audit shows it.
    expect(await eventsOf(`actor_name = '${unknown}'`)).toEqual([]);
    const [stored] = await t.dataSource.query(
      `SELECT operation, id_organization FROM change_log WHERE actor_name = $1`,
      [unknown],
    );
    expect(stored).toEqual({ operation: 'sign_in_failed', id_organization: null });
  });

  it('logs a password changed by its user and one reset by an administrator', async () => {
    const user = await createUser(t);
    const session = await login(t, user.userName, user.password);
    await request(t.http)
      .post('/auth/password')
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrfToken)
      .type('form')
      .send({
        'current-password': user.password,
        'set-password': 'a-new-password-1',
        'confirm-password': 'a-new-password-1',
      })
      .expect(204);
    await as(t, fixture.admin)
      .post(`/rest/entity/user/${user.key}`, { properties: { password: 'reset-password-1' } })
      .expect(200);
    const events = await eventsOf(
      `entity = 'user' AND record_key = ${user.key} AND operation IN ('password_changed', 'password_reset')`,
    );
    expect(events.map((e) => [e.operation, e.actor_name])).toEqual([
      ['password_changed', user.userName],
      ['password_reset', 'admin'],
    ]);
  });

  it('logs an API key created and revoked, with its name', async () => {
    const user = await createUser(t);
    const session = await login(t, user.userName, user.password);
    const created = await request(t.http)
      .post('/auth/api-keys')
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrfToken)
      .send({ name: 'nightly export' })
      .expect(201);
    await request(t.http)
      .delete(`/auth/api-keys/${created.body.id}`)
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrfToken)
      .expect(204);
    const events = await eventsOf(
      `entity = 'user' AND record_key = ${user.key} AND operation IN ('api_key_created', 'api_key_revoked')`,
    );
    expect(events).toEqual([
      expect.objectContaining({
        operation: 'api_key_created',
        detail: { apiKey: created.body.id, name: 'nightly export' },
        via: 'session',
      }),
      expect.objectContaining({ operation: 'api_key_revoked', actor_name: user.userName }),
    ]);
  });

  it("logs a role's privileges changed and a user's roles changed, once per write", async () => {
    const role = await fixture.role({ account: { read: 'user' }, contact: { read: 'user' } });
    await as(t, fixture.admin)
      .post(`/rest/entity/role/${role.key}`, {
        children: {
          role_role_privilege: [{ properties: { entity_name: 'account', read: 'organization' } }],
        },
      })
      .expect(200);
    const roleEvents = await eventsOf(
      `entity = 'role' AND record_key = ${role.key} AND operation = 'privileges_changed'`,
    );
    expect(roleEvents.map((e) => e.detail)).toEqual([{ created: 2 }, { created: 1, deleted: 2 }]);

    const user = await createUser(t, { roles: [] });
    await fixture.holds(user.key, [role.key]);
    const userEvents = await eventsOf(
      `entity = 'user' AND record_key = ${user.key} AND operation = 'roles_changed'`,
    );
    expect(userEvents.map((e) => [e.actor_name, e.detail])).toEqual([['admin', { created: 1 }]]);
  });

  it('logs an administrator made and unmade, as roles changed on the user', async () => {
    const user = await createUser(t, { roles: [] });
    const setAdmin = (isAdmin: boolean) =>
      as(t, fixture.admin)
        .post(`/rest/entity/user/${user.key}`, { properties: { is_admin: isAdmin } })
        .expect(200);
    await setAdmin(true);
    await as(t, fixture.admin)
      .post(`/rest/entity/user/${user.key}`, { properties: { full_name: 'Renamed' } })
      .expect(200);
    await setAdmin(false);
    const events = await eventsOf(
      `entity = 'user' AND record_key = ${user.key} AND operation = 'roles_changed'`,
    );
    // Twice: made and unmade; the rename of an administrator is no such event.
    expect(events.map((e) => [e.actor_name, e.detail])).toEqual([
      ['admin', { updated: 1 }],
      ['admin', { updated: 1 }],
    ]);
  });

  it('logs a webhook secret rotated, by whom, without the secret', async () => {
    const { body: hook } = await request(t.http)
      .post('/rest/webhooks')
      .set('X-API-Key', fixture.admin)
      .send({ name: 'Rotated', url: 'http://127.0.0.1:9/hook', events: 'product.deleted' })
      .expect(201);
    const { body: rotated } = await request(t.http)
      .post(`/rest/webhooks/${hook.key}/secret`)
      .set('X-API-Key', fixture.admin)
      .expect(200);
    const events = await eventsOf(
      `entity = 'webhook' AND record_key = ${hook.key} AND operation = 'secret_rotated'`,
    );
    expect(events).toEqual([
      expect.objectContaining({ actor_name: 'admin', detail: null, record_key: hook.key }),
    ]);
    const logged = JSON.stringify(
      await t.dataSource.query(`SELECT * FROM change_log WHERE entity = 'webhook'`),
    );
    expect(logged).not.toContain(rotated.secret);
    expect(logged).not.toContain(hook.secret);
  });

  it("logs a new organization's unit, its member role and the role's privileges, and its administrator made", async () => {
    const { organization, admin } = await createOrganization(t);
    // Another organization's: read from the database, as its own administrator would.
    const adminEvents = await t.dataSource.query(
      `SELECT detail FROM change_log
        WHERE entity = 'user' AND record_key = $1 AND operation = 'roles_changed'`,
      [admin.key],
    );
    // Made an administrator outside the entity API (the CLI, the first boot): a right granted.
    expect(adminEvents).toEqual([{ detail: { created: 1 } }]);
    const rows: { operation: string; entity: string; detail: object | null }[] =
      await t.dataSource.query(
        `SELECT operation, entity, detail FROM change_log
          WHERE id_organization = $1 AND entity IN ('organization', 'business_unit', 'role')
          ORDER BY key`,
        [organization.key],
      );
    const [{ fields }] = await t.dataSource.query(
      `SELECT count(*)::int AS fields FROM role_field_permission r JOIN role ON role.key = r.id_role
        WHERE role.id_organization = $1`,
      [organization.key],
    );
    expect(rows).toEqual([
      { operation: 'created', entity: 'organization', detail: null },
      { operation: 'created', entity: 'business_unit', detail: null },
      { operation: 'created', entity: 'role', detail: null },
      // Its `*` privilege and a field permission per secured property.
      { operation: 'privileges_changed', entity: 'role', detail: { created: 1 + fields } },
    ]);
    expect(fields).toBeGreaterThan(0);
  });
});
