import request from 'supertest';
import { sha256 } from '../src/common/secrets';
import { freePort } from './helpers/free-port';
import { AUDIENCE, Browser, CLIENT_ID, TestProvider } from './helpers/oidc-provider';
import { DeafeningProxy } from './helpers/deafening-proxy';
import {
  apiKeyUser,
  createSecondTestApp,
  createTestApp,
  sessionOfNewUser,
  TestApp,
} from './helpers/test-app';

const AFTER_LOGIN = 'http://127.0.0.1:9/after-login';

/**
 * OpenID Connect against a real provider (oidc-provider on loopback, in this process):
 * the code flow with PKCE through a browser-like client, the token form of POST /auth,
 * renewal with refresh tokens, the refresh filter, bearer tokens, and every refusal.
 */
describe('OpenID Connect and OAuth 2.0', () => {
  let provider: TestProvider;
  let t: TestApp;
  let appUrl: string;

  const providerEntry = (overrides: object = {}) => provider.entry([AFTER_LOGIN], overrides);

  beforeAll(async () => {
    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    provider = await TestProvider.start({ appCallback: `${appUrl}/oauth/test` });
    t = await createTestApp({
      PUBLIC_URL: appUrl,
      OIDC_PROVIDERS: JSON.stringify([providerEntry()]),
    });
    await t.app.listen(port, '127.0.0.1');
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  const cookieHeader = (cookies: Map<string, string>) =>
    [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const whoAmI = async (headers: Record<string, string>) =>
    (await request(t.http).get('/auth').set(headers).expect(200)).body;
  /** A whole code-flow login of `login`: the browser, with the app's cookies in it. */
  const codeFlowLogin = async (login: string) => {
    const browser = new Browser();
    const start = `${appUrl}/oauth/test/login?redirectUrl=${encodeURIComponent(AFTER_LOGIN)}`;
    expect(await browser.logIn(start, login, AFTER_LOGIN)).toBe(AFTER_LOGIN);
    return browser;
  };
  const tokenLogin = (accessToken: string, refreshToken?: string) =>
    request(t.http)
      .post('/auth')
      .set('Oidc-Auth-Token', accessToken)
      .set(refreshToken ? { 'Oidc-Refresh-Token': refreshToken } : {});
  const sessionCookie = (response: request.Response) =>
    (response.headers['set-cookie'] as unknown as string[])
      .map((line) => line.split(';')[0])
      .find((pair) => pair.startsWith('svc.rest.auth.token='))!;

  describe('configuration', () => {
    it('lists the providers at GET /oauth, without authentication', async () => {
      const { body } = await request(t.http).get('/oauth').expect(200);
      expect(body).toEqual([
        {
          name: 'test',
          displayName: 'Test IdP',
          default: true,
          loginUrl: `${appUrl}/oauth/test/login`,
        },
      ]);
    });

    it('reports the default provider’s issuer as oidcIssuer', async () => {
      expect((await whoAmI({})).oidcIssuer).toBe(provider.issuer);
    });

    it('fails the boot on a provider it cannot use, naming it', async () => {
      await expect(
        createSecondTestApp({
          OIDC_PROVIDERS: JSON.stringify([providerEntry({ issuer: 'http://idp.example.com' })]),
        }),
      ).rejects.toThrow(/OIDC_PROVIDERS\[0\]: issuer http:\/\/idp\.example\.com must be https/);
    });
  });

  describe('the authorization code flow (GET /oauth/{provider}/login, GET /oauth/{provider})', () => {
    it('sends the browser to the provider with PKCE and a sealed state', async () => {
      const response = await request(t.http)
        .get(`/oauth/test/login?redirectUrl=${encodeURIComponent(AFTER_LOGIN)}`)
        .expect(302);
      const location = new URL(response.headers.location);
      expect(location.origin + location.pathname).toBe(`${provider.issuer}/auth`);
      expect(Object.fromEntries(location.searchParams)).toMatchObject({
        client_id: CLIENT_ID,
        response_type: 'code',
        redirect_uri: `${appUrl}/oauth/test`,
        code_challenge_method: 'S256',
        code_challenge: expect.stringMatching(/^[\w-]{43}$/),
        scope: 'openid profile email',
        state: expect.any(String),
      });
      expect(location.searchParams.get('state')).not.toContain(AFTER_LOGIN);
    });

    it('signs the user in: the cookies of spec 5.3 and 5.4, then back to redirectUrl', async () => {
      const browser = await codeFlowLogin('alice');
      expect(browser.answered).toEqual(['login', 'consent']);
      for (const name of ['svc.rest.auth.token', 'svc.rest.csrf.token', 'svc.rest.locale']) {
        expect(browser.cookies.has(name)).toBe(true);
      }
      expect(browser.cookies.get('auth.strategy')).toBe('test');
      expect(browser.cookies.get('auth._refresh_token.test')).toEqual(expect.any(String));
      const session = `svc.rest.auth.token=${browser.cookies.get('svc.rest.auth.token')}`;
      expect(await whoAmI({ Cookie: session })).toMatchObject({
        userName: 'alice',
        userFullName: 'User alice',
      });
    });

    it('makes a user once: the same subject signing in twice is the same user', async () => {
      const first = await codeFlowLogin('bob');
      const second = await codeFlowLogin('bob');
      const keyOf = async (browser: Browser) =>
        (
          await whoAmI({
            Cookie: `svc.rest.auth.token=${browser.cookies.get('svc.rest.auth.token')}`,
          })
        ).userKey;
      expect(await keyOf(first)).toBe(await keyOf(second));
      const rows = await t.dataSource.query(
        `SELECT key, id_organization FROM "user" WHERE oidc_issuer = $1 AND oidc_subject = 'bob'`,
        [provider.issuer],
      );
      expect(rows).toHaveLength(1);
      // The provider's roles, given once, when the user was made.
      const roles = await t.dataSource.query(
        `SELECT r.name FROM user_role ur JOIN role r ON r.key = ur.id_role WHERE ur.id_parent_user = $1`,
        [rows[0].key],
      );
      expect(roles).toEqual([{ name: 'member' }]);
      const tokens = await provider.tokensFor('bob');
      const { body } = await tokenLogin(tokens.access_token).expect(200);
      expect(body.userKey).toBe(rows[0].key);
    });

    it('refuses a redirectUrl that is missing or off the allow-list (no open redirect)', async () => {
      const offList = await request(t.http)
        .get(`/oauth/test/login?redirectUrl=${encodeURIComponent('https://evil.example/')}`)
        .expect(400);
      expect(offList.body.detail).toBe(
        "redirectUrl https://evil.example/ is not on provider test's allow-list",
      );
      await request(t.http).get('/oauth/test/login').expect(400);
      await request(t.http).get('/oauth/nobody/login?redirectUrl=x').expect(404);
    });

    it('refuses a replayed, tampered, forged or expired state, and a missing code', async () => {
      const browser = new Browser();
      const start = `${appUrl}/oauth/test/login?redirectUrl=${encodeURIComponent(AFTER_LOGIN)}`;
      const callback = await browser.logIn(start, 'carol', `${appUrl}/oauth/test?`);
      const url = new URL(callback);
      const state = url.searchParams.get('state')!;
      /** The provider's callback as it came (code, iss), with another state. */
      const withState = (value: string) => {
        const params = new URLSearchParams(url.search);
        params.set('state', value);
        return request(t.http).get(`/oauth/test?${params.toString()}`);
      };

      // One character changed, the second last (the last may carry unused bits). Chosen by
      // the character it replaces: by the last one, 1 run in 64 "tampered" nothing.
      const changed = state.at(-2) === 'A' ? 'B' : 'A';
      const tampered = state.slice(0, -2) + changed + state.slice(-1);
      expect(tampered).not.toBe(state);
      expect((await withState(tampered).expect(400)).body.detail).toBe('state is not valid');
      expect((await withState('forged-state').expect(400)).body.detail).toBe('state is not valid');
      await request(t.http)
        .get(`/oauth/test?state=${encodeURIComponent(state)}`)
        .expect(400);

      await withState(state).expect(302).expect('Location', AFTER_LOGIN);
      expect((await withState(state).expect(400)).body.detail).toBe(
        'state has been used already: log in again',
      );

      const late = new Browser();
      const lateCallback = new URL(await late.logIn(start, 'carol', `${appUrl}/oauth/test?`));
      await t.dataSource.query(`UPDATE oauth_login SET expires_at = now() - interval '1 second'`);
      await request(t.http).get(`/oauth/test${lateCallback.search}`).expect(400);
    });
    it('records the refusal a provider sends back, whatever its description holds', async () => {
      // The description reaches the sign-in failure's change-log entry: a NUL (%00) in it
      // was a 500, jsonb refusing the entry's JSON text.
      const marker = `denied-${Date.now()}`;
      const { body } = await request(t.http)
        .get(`/oauth/test?error=access_denied&error_description=${marker}%00by%20policy`)
        .expect(400);
      expect(body.detail).toBe(
        `The provider refused the login: access_denied (${marker}\u0000by policy)`,
      );
      const [entry] = await t.dataSource.query(
        `SELECT detail->>'reason' AS reason FROM change_log
          WHERE operation = 'sign_in_failed' AND detail->>'reason' LIKE '%' || $1 || '%'`,
        [marker],
      );
      expect(entry.reason).toBe(
        `The provider refused the login: access_denied (${marker}\ufffdby policy)`,
      );
    });
  });

  describe('the token form of POST /auth (Oidc-Auth-Token, Oidc-Refresh-Token)', () => {
    it('signs in with an access token of the provider: 200 with the info, and cookies', async () => {
      const tokens = await provider.tokensFor('dave');
      const response = await tokenLogin(tokens.access_token).send({ ignored: true }).expect(200);
      // An access token carries no profile claims here: the user is named <provider>-<subject>.
      expect(response.body).toMatchObject({ userName: 'test-dave', oidcIssuer: provider.issuer });
      expect(response.headers['x-csrf-token']).toEqual(expect.any(String));
      expect(await whoAmI({ Cookie: sessionCookie(response) })).toMatchObject({
        userName: 'test-dave',
      });
    });

    it('renews the access token itself with the refresh token once it expires', async () => {
      const tokens = await provider.tokensFor('erin');
      const response = await tokenLogin(tokens.access_token, tokens.refresh_token).expect(200);
      const cookie = sessionCookie(response);
      const hash = sha256(cookie.split('=')[1]);
      await t.dataSource.query(
        `UPDATE session SET access_expires_at = now() - interval '1 second' WHERE token_hash = $1`,
        [hash],
      );
      expect(await whoAmI({ Cookie: cookie })).toMatchObject({ userName: 'test-erin' });
      const [row] = await t.dataSource.query(
        `SELECT access_expires_at > now() AS renewed FROM session WHERE token_hash = $1`,
        [hash],
      );
      expect(row.renewed).toBe(true);
    });

    it('ends the session with the access token when no refresh token was given', async () => {
      const tokens = await provider.tokensFor('frank');
      const response = await tokenLogin(tokens.access_token).expect(200);
      const cookie = sessionCookie(response);
      await t.dataSource.query(
        `UPDATE session SET access_expires_at = now() - interval '1 second' WHERE token_hash = $1`,
        [sha256(cookie.split('=')[1])],
      );
      expect((await whoAmI({ Cookie: cookie })).userName).toBeUndefined();
    });

    const now = () => Math.floor(Date.now() / 1000);
    it.each([
      [
        'a tampered signature',
        async () => {
          const [header, payload, signature] = (
            await provider.tokensFor('gina')
          ).access_token.split('.');
          const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
          const changed = Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString(
            'base64url',
          );
          return [header, changed, signature].join('.');
        },
        /signature is not valid/,
      ],
      [
        'another issuer',
        () => provider.mint({ sub: 'gina', iss: 'http://127.0.0.1:1' }),
        /issuer http:\/\/127\.0\.0\.1:1 are not accepted/,
      ],
      [
        'an expired token',
        () => provider.mint({ sub: 'gina', iat: now() - 600, exp: now() - 60 }),
        /has expired/,
      ],
      [
        'another audience',
        () => provider.mint({ sub: 'gina', aud: 'someone-else' }),
        /not for this server/,
      ],
      [
        'alg none',
        async () => {
          const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString(
            'base64url',
          );
          const payload = Buffer.from(
            JSON.stringify({ iss: provider.issuer, sub: 'gina', aud: AUDIENCE, exp: now() + 300 }),
          ).toString('base64url');
          return `${header}.${payload}.`;
        },
        /not signed with a key pair|could not be verified/,
      ],
      [
        'a key the provider does not have',
        async () => {
          const { SignJWT, generateKeyPair } = await import('jose');
          const { privateKey } = await generateKeyPair('RS256');
          return new SignJWT({ iss: provider.issuer, sub: 'gina', aud: AUDIENCE })
            .setProtectedHeader({ alg: 'RS256', kid: 'other-key' })
            .setExpirationTime('5m')
            .sign(privateKey);
        },
        /unknown key|could not be verified/,
      ],
      [
        'an opaque token the provider does not know',
        async () => 'not-a-jwt-at-all',
        /does not know this token/,
      ],
    ] as [string, () => Promise<string>, RegExp][])(
      'refuses %s with 401',
      async (_, token, detail) => {
        const { body } = await tokenLogin(await token()).expect(401);
        expect(body.detail).toMatch(detail);
      },
    );
  });

  describe('the refresh filter (auth.strategy, auth._refresh_token.<provider>)', () => {
    it('authenticates with the refresh cookies alone, starting a new session', async () => {
      const browser = await codeFlowLogin('hana');
      const refreshOnly = new Map(
        [...browser.cookies].filter(([name]) => name.startsWith('auth.')),
      );
      const response = await request(t.http)
        .get('/auth/api-keys')
        .set('Cookie', cookieHeader(refreshOnly))
        .expect(200);
      const names = (response.headers['set-cookie'] as unknown as string[]).map(
        (line) => line.split('=')[0],
      );
      expect(names).toEqual(expect.arrayContaining(['svc.rest.auth.token', 'svc.rest.csrf.token']));
      expect(await whoAmI({ Cookie: sessionCookie(response) })).toMatchObject({ userName: 'hana' });
    });

    it('does not match with a tampered refresh cookie: 401', async () => {
      await request(t.http)
        .get('/auth/api-keys')
        .set('Cookie', 'auth.strategy=test; auth._refresh_token.test=tampered')
        .expect(401);
    });
  });

  describe('bearer tokens (Authorization: Bearer)', () => {
    it('authenticate API calls, with no session and no CSRF header', async () => {
      const tokens = await provider.tokensFor('ivan');
      const bearer = { Authorization: `Bearer ${tokens.access_token}` };
      expect(await whoAmI(bearer)).toMatchObject({ userName: 'test-ivan' });
      await request(t.http)
        .post('/rest/fetch')
        .set(bearer)
        .set('Content-Type', 'text/plain')
        .send('FETCH account (name) LIMIT 1')
        .expect(200)
        .expect(({ body }) => expect(body).toHaveLength(1)); // role member reads accounts
    });

    it('are a 503, not a 401, while their provider cannot be reached', async () => {
      // A provider of its own, gone before the app has fetched its key set.
      const gone = await TestProvider.start({ appCallback: `${appUrl}/oauth/gone` });
      const app = await createSecondTestApp({
        OIDC_PROVIDERS: JSON.stringify([
          providerEntry(),
          providerEntry({ name: 'gone', issuer: gone.issuer, redirectUrls: [] }),
        ]),
      });
      try {
        const token = await gone.mint({ sub: 'ivan' });
        await gone.close();
        const { body } = await request(app.http)
          .get('/auth/api-keys')
          .set('Authorization', `Bearer ${token}`)
          .expect(503);
        expect(body.detail).toBe('The OpenID provider gone cannot be reached to check the token');
        // Another provider's token still signs in meanwhile.
        const tokens = await provider.tokensFor('ivan');
        await request(app.http)
          .get('/auth/api-keys')
          .set('Authorization', `Bearer ${tokens.access_token}`)
          .expect(200);
      } finally {
        await app.close();
      }
    });

    it('are a 503, not a 401, while the database cannot be reached, as API keys and sessions are', async () => {
      const proxy = await DeafeningProxy.start(process.env.ATRIUM_TEST_DATABASE_URL!);
      const app = await createSecondTestApp(
        { OIDC_PROVIDERS: JSON.stringify([providerEntry()]) },
        proxy.url,
      );
      try {
        // Made through the first app: the same database, and this app's first sight of them.
        const { key } = await apiKeyUser(t);
        const session = await sessionOfNewUser(t);
        // A token this app has never seen: its user is looked up, not taken from the cache.
        const tokens = await provider.tokensFor('ivan');
        await proxy.close();
        for (const credentials of [
          { Authorization: `Bearer ${tokens.access_token}` },
          { 'X-API-Key': key },
          { Cookie: session.cookie },
        ]) {
          const { status, body } = await request(app.http).get('/auth/api-keys').set(credentials);
          expect({ status, body }).toEqual({
            status: 503,
            body: { detail: expect.stringMatching(/^The database cannot be reached/) },
          });
        }
      } finally {
        await app.close();
        await proxy.close();
      }
    });

    it('refuse a bad one: 401', async () => {
      const expired = await provider.mint({ sub: 'ivan', exp: Math.floor(Date.now() / 1000) - 60 });
      await request(t.http)
        .get('/auth/api-keys')
        .set('Authorization', `Bearer ${expired}`)
        .expect(401);
    });
  });

  it('refuses an unknown subject with 401 when the provider may not create users', async () => {
    const closed = await createSecondTestApp({
      OIDC_PROVIDERS: JSON.stringify([providerEntry({ autoProvision: false })]),
    });
    try {
      const tokens = await provider.tokensFor('stranger');
      const { body } = await request(closed.http)
        .post('/auth')
        .set('Oidc-Auth-Token', tokens.access_token)
        .expect(401);
      expect(body.detail).toBe(
        'No user signs in as stranger of test, and that provider does not create users',
      );
    } finally {
      await closed.close();
    }
  });

  it('refuses to make a user with a role its organization does not have: 503 naming it', async () => {
    const misconfigured = await createSecondTestApp({
      OIDC_PROVIDERS: JSON.stringify([providerEntry({ roles: ['no-such-role'] })]),
    });
    try {
      const tokens = await provider.tokensFor('newcomer');
      const { body } = await request(misconfigured.http)
        .post('/auth')
        .set('Oidc-Auth-Token', tokens.access_token)
        .expect(503);
      expect(body.detail).toMatch(
        /test gives new users roles of "Demo": No role named "no-such-role"/,
      );
      const made = await misconfigured.dataSource.query(
        `SELECT 1 FROM "user" WHERE oidc_subject = 'newcomer'`,
      );
      expect(made).toHaveLength(0);
    } finally {
      await misconfigured.close();
    }
  });
});
