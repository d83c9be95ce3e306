import request from 'supertest';
import packageJson from '../package.json';
import { sha256 } from '../src/common/secrets';
import { StatementCounter } from './helpers/statement-counter';
import {
  apiKeyUser,
  createSecondTestApp,
  createTestApp,
  createUser,
  login,
  TestApp,
} from './helpers/test-app';

/** GET /auth's answer to a request of no user: the server's fields, none of a user's. */
const NO_USER = {
  clientAdress: expect.stringMatching(/127\.0\.0\.1/),
  oidcIssuer: '',
  name: 'Atrium',
  isSecure: false,
  version: packageJson.version,
};
/** The refusal of a route that needs a user. */
const REFUSED = {
  detail: 'Authentication required: send an API key, a session cookie or a bearer token',
};

describe('cookie sessions', () => {
  let t: TestApp;
  let user: { userName: string; password: string };

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
  });
  afterAll(() => t.close());

  const whoAmI = (cookie: string) => request(t.http).get('/auth').set('Cookie', cookie);
  /** The session of `cookie` is over: GET /auth answers as to no user, not an error. */
  const expectNoUser = async (cookie: string) => {
    const { status, body } = await whoAmI(cookie);
    expect({ status, body }).toEqual({ status: 200, body: NO_USER });
  };
  /** A route that needs a user refuses `cookie`. */
  const expectRefused = async (cookie: string) => {
    const { status, body } = await request(t.http).get('/auth/api-keys').set('Cookie', cookie);
    expect({ status, body }).toEqual({ status: 401, body: REFUSED });
  };
  const ageSession = (token: string, column: string, interval: string) =>
    t.dataSource.query(
      `UPDATE session SET ${column} = now() - $2::interval WHERE token_hash = $1`,
      [sha256(token), interval],
    );

  describe('HEAD /auth?logout=1', () => {
    it('ends the session in the database and clears the three cookies', async () => {
      const { cookie, token } = await login(t, user.userName, user.password);
      const response = await request(t.http)
        .head('/auth?logout=1')
        .set('Cookie', cookie)
        .expect(200);
      const cleared = response.headers['set-cookie'] as unknown as string[];
      expect(cleared.map((c) => c.split('=')[0])).toEqual([
        'svc.rest.auth.token',
        'svc.rest.csrf.token',
        'svc.rest.locale',
      ]);
      for (const line of cleared) {
        expect(line).toMatch(
          /=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT;.* Secure/,
        );
      }
      const rows = await t.dataSource.query(`SELECT 1 FROM session WHERE token_hash = $1`, [
        sha256(token),
      ]);
      expect(rows).toHaveLength(0);
      await expectNoUser(cookie);
      await expectRefused(cookie);
    });

    it('answers 200 and clears the cookies even without a session', async () => {
      const response = await request(t.http).head('/auth?logout=1').expect(200);
      expect(response.headers['set-cookie']).toHaveLength(3);
    });

    it('does nothing without logout=1', async () => {
      const { cookie } = await login(t, user.userName, user.password);
      const response = await request(t.http).head('/auth').set('Cookie', cookie).expect(200);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect((await whoAmI(cookie)).body.userName).toBe(user.userName);
    });
  });

  it('authenticates a cookie request with one statement on the unique token index', async () => {
    const { cookie } = await login(t, user.userName, user.password);
    const counter = await StatementCounter.attach(t);
    const statements = await counter.record(() => whoAmI(cookie).expect(200));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/FROM session s JOIN "user" u .* WHERE \(s\.token_hash = \$1/);
    const indexes: { indexdef: string }[] = await t.dataSource.query(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'session'`,
    );
    expect(indexes.map((i) => i.indexdef)).toContainEqual(
      expect.stringMatching(/CREATE UNIQUE INDEX .* ON public\.session USING btree \(token_hash\)/),
    );
  });

  it('refuses a forged token', async () => {
    await expectRefused('svc.rest.auth.token=forged');
    await expectNoUser('svc.rest.auth.token=forged');
  });

  it('ends a session left idle longer than the idle time', async () => {
    const { cookie, token } = await login(t, user.userName, user.password);
    await ageSession(token, 'last_seen_at', '31 minutes');
    await expectNoUser(cookie);
    await expectRefused(cookie);
  });

  it('slides the idle expiry on use', async () => {
    const { cookie, token } = await login(t, user.userName, user.password);
    await ageSession(token, 'last_seen_at', '20 minutes');
    await whoAmI(cookie).expect(200);
    const [row] = await t.dataSource.query(
      `SELECT last_seen_at > now() - interval '1 minute' AS fresh FROM session WHERE token_hash = $1`,
      [sha256(token)],
    );
    expect(row.fresh).toBe(true);
  });

  it('ends a session at its absolute expiry however active it is', async () => {
    const { cookie, token } = await login(t, user.userName, user.password);
    await t.dataSource.query(
      `UPDATE session SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
      [sha256(token)],
    );
    await expectNoUser(cookie);
    await expectRefused(cookie);
  });

  it('rotates an old token: a new cookie is set, the old one works for a grace period only', async () => {
    const { cookie, token } = await login(t, user.userName, user.password);
    await ageSession(token, 'rotated_at', '16 minutes');
    const response = await whoAmI(cookie).expect(200);
    expect(response.body.userName).toBe(user.userName);
    const [setCookie] = response.headers['set-cookie'] as unknown as string[];
    expect(setCookie).toMatch(
      /^svc\.rest\.auth\.token=[\w-]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    const newToken = setCookie.split(';')[0].split('=')[1];
    expect(newToken).not.toBe(token);

    expect((await whoAmI(`svc.rest.auth.token=${newToken}`)).body.userName).toBe(user.userName);
    expect((await whoAmI(cookie)).body.userName).toBe(user.userName);
    await t.dataSource.query(
      `UPDATE session SET previous_valid_until = now() - interval '1 second' WHERE token_hash = $1`,
      [sha256(newToken)],
    );
    await expectNoUser(cookie);
    expect((await whoAmI(`svc.rest.auth.token=${newToken}`)).body.userName).toBe(user.userName);
  });

  it('follows the configured order of the chain: the first strategy that matches decides', async () => {
    const keyOwner = await apiKeyUser(t);
    const { cookie } = await login(t, user.userName, user.password);
    const both = (app: TestApp) =>
      request(app.http).get('/auth').set('Cookie', cookie).set('X-API-Key', keyOwner.key);
    expect((await both(t).expect(200)).body.userName).toBe(keyOwner.userName);

    const sessionFirst = await createSecondTestApp({ AUTH_STRATEGIES: 'session,api-key' });
    try {
      expect((await both(sessionFirst).expect(200)).body.userName).toBe(user.userName);
    } finally {
      await sessionFirst.close();
    }
  });

  it('is shared by server instances on the same database', async () => {
    const other = await createSecondTestApp();
    try {
      const { cookie, csrfToken } = await login(t, user.userName, user.password);
      const { body } = await request(other.http).get('/auth').set('Cookie', cookie).expect(200);
      expect(body.userName).toBe(user.userName);
      await request(other.http)
        .post('/auth/api-keys')
        .set('Cookie', cookie)
        .set('X-CSRF-Token', csrfToken)
        .send({ name: 'made on the other instance' })
        .expect(201);
      await request(other.http).head('/auth?logout=1').set('Cookie', cookie).expect(200);
      await expectNoUser(cookie);
    } finally {
      await other.close();
    }
  });
});
