import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { LOCALE_COOKIE } from '../src/auth/session-cookies';
import { environmentWithout } from './helpers/child-process';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { freePort } from './helpers/free-port';
import { Browser, CLIENT_SECRET, TestProvider } from './helpers/oidc-provider';
import { running, ServerProcess } from './helpers/server-process';

const AFTER_LOGIN = 'http://127.0.0.1:9/after-login';

/**
 * The built server at LOG_LEVEL=trace, taken through every way a credential reaches it
 * (passwords by JSON and form, wrong ones, a password change and one set by an
 * administrator, API keys by header and by query under any spelling, session cookies and
 * CSRF tokens, OpenID code flow, token login, refresh and bearer tokens); then its whole
 * output is searched for each secret and each stored hash.
 */
describe('secrets never reach the log', () => {
  let workDir: string;
  let provider: TestProvider;
  let server: ServerProcess;
  /** Every secret the run handled, by what it is (for the failure message). */
  const secrets = new Map<string, string>();
  const keep = (what: string, value: string | undefined | null) => {
    if (value) secrets.set(value, what);
  };

  const cookiesOf = (response: request.Response) =>
    ((response.headers['set-cookie'] as unknown as string[] | undefined) ?? []).map(
      (line) => line.split(';')[0],
    );
  /** Cookie values that are credentials: not the locale (`RO`) or a provider's name. */
  const keepCookies = (what: string, pairs: Iterable<[string, string]>) => {
    for (const [name, value] of pairs) {
      if (name !== LOCALE_COOKIE && value.length >= 16) keep(what, value);
    }
  };
  const pairsOf = (cookies: string[]) =>
    cookies.map((pair) => pair.split('=', 2) as [string, string]);

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'atr-logs-'));
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    provider = await TestProvider.start({ appCallback: `${appUrl}/oauth/test` });
    const providers = [provider.entry([AFTER_LOGIN])];
    server = await ServerProcess.start(
      {
        ...environmentWithout('TEST_DATABASE_URL', 'ADMIN_PASSWORD'),
        DATABASE_URL: process.env.ATRIUM_TEST_DATABASE_URL,
        DATA_DIR: workDir,
        LOG_LEVEL: 'trace',
        PUBLIC_URL: appUrl,
        OIDC_PROVIDERS: JSON.stringify(providers),
      },
      workDir,
      port,
    );
    keep('the OpenID client secret', CLIENT_SECRET);
  });
  afterAll(async () => {
    for (const child of running) await child.kill('SIGKILL');
    await provider.close();
    await rm(workDir, { recursive: true, force: true });
  });

  it('holds no password, hash, key, token or cookie at any level', async () => {
    const http = () => request(server.url);
    keep('the admin password', TEST_ADMIN_PASSWORD);

    // Passwords: JSON and form, a wrong one, then a session's cookies and CSRF token.
    await http().post('/auth').send({ user: 'admin', password: 'wrong-password-1' }).expect(401);
    keep('a wrong password', 'wrong-password-1');
    await http()
      .post('/auth')
      .type('form')
      .send({ user: 'admin', password: TEST_ADMIN_PASSWORD })
      .expect(200);
    const login = await http()
      .post('/auth')
      .send({ user: 'admin', password: TEST_ADMIN_PASSWORD })
      .expect(200);
    const cookie = cookiesOf(login).join('; ');
    const csrf = login.headers['x-csrf-token'];
    keepCookies('a session cookie', pairsOf(cookiesOf(login)));
    keep('a CSRF token', csrf);
    const asAdmin = (test: request.Test) => test.set('Cookie', cookie).set('X-CSRF-Token', csrf);

    // A user whose password an administrator sets, then changes; the user changes it.
    const userName = `logged_${Date.now()}`;
    const { body: createdUser } = await asAdmin(http().post('/rest/entity/user'))
      .send({
        properties: { user_name: userName, full_name: 'Logged', password: 'first-password-1' },
      })
      .expect(200);
    keep("an administrator's password for a new user", 'first-password-1');
    await asAdmin(http().post(`/rest/entity/user/${createdUser.key}`))
      .send({ properties: { password: 'reset-password-0' } })
      .expect(200);
    keep("an administrator's reset of a password", 'reset-password-0');
    await asAdmin(http().post(`/rest/entity/user/${createdUser.key}`))
      .send({ properties: { password: 'first-password-1' } })
      .expect(200);
    const user = await http()
      .post('/auth')
      .send({ user: userName, password: 'first-password-1' })
      .expect(200);
    const userCookie = cookiesOf(user).join('; ');
    await http()
      .post('/auth/password')
      .set('Cookie', userCookie)
      .set('X-CSRF-Token', user.headers['x-csrf-token'])
      .type('form')
      .send({
        'current-password': 'first-password-1',
        'set-password': 'second-password-2',
        'confirm-password': 'second-password-2',
      })
      .expect(204);
    keep('a changed password', 'second-password-2');
    // A duplicate user name: the insert fails in the database with the hash as a parameter.
    await asAdmin(http().post('/rest/entity/user'))
      .send({
        properties: { user_name: userName, full_name: 'Again', password: 'third-password-3' },
      })
      .expect(409);
    keep('the password of a refused user', 'third-password-3');

    // API keys: by header, and by query under every spelling the query parser decodes.
    const { body: created } = await asAdmin(http().post('/auth/api-keys'))
      .send({ name: 'logged' })
      .expect(201);
    keep('an API key', created.key);
    await http().get('/auth').set('X-API-Key', created.key).expect(200);
    for (const name of ['apiKey', 'api%4Bey', '%61piKey']) {
      const { body } = await http().get(`/auth?${name}=${created.key}`).expect(200);
      expect(body.userName).toBe('admin');
    }
    await http().get('/auth/api-keys').set('X-API-Key', `${created.key}x`).expect(401);
    keep('a wrong API key', `${created.key}x`);

    // OpenID: the code flow in a browser, token login with a refresh token, bearer tokens.
    const browser = new Browser();
    const start = `${server.url}/oauth/test/login?redirectUrl=${encodeURIComponent(AFTER_LOGIN)}`;
    expect(await browser.logIn(start, 'oidc-logged', AFTER_LOGIN)).toBe(AFTER_LOGIN);
    keepCookies('a cookie of the code flow', browser.cookies);
    const tokens = await provider.tokensFor('oidc-token-user');
    keep('an access token', tokens.access_token);
    keep('a refresh token', tokens.refresh_token);
    keep('an ID token', tokens.id_token);
    const tokenLogin = await http()
      .post('/auth')
      .set('Oidc-Auth-Token', tokens.access_token)
      .set('Oidc-Refresh-Token', tokens.refresh_token!)
      .expect(200);
    keepCookies('a token-login cookie', pairsOf(cookiesOf(tokenLogin)));
    await http().get('/auth').set('Authorization', `Bearer ${tokens.access_token}`).expect(200);
    await http().get('/auth/api-keys').set('Authorization', 'Bearer not-a-token').expect(401);

    // Logout ends it.
    await http().head('/auth?logout=1').set('Cookie', cookie).expect(200);

    // What the database keeps of them: hashes, sealed tokens.
    const client = new Client({ connectionString: process.env.ATRIUM_TEST_DATABASE_URL });
    await client.connect();
    try {
      for (const [what, sql] of [
        [
          'a password hash',
          `SELECT password_hash AS v FROM "user" WHERE password_hash IS NOT NULL`,
        ],
        ['an API key hash', `SELECT secret_hash AS v FROM api_key`],
        ['a session token hash', `SELECT token_hash AS v FROM session`],
        ['a CSRF token', `SELECT csrf_token AS v FROM session`],
        ['a stored refresh token', `SELECT refresh_token AS v FROM session`],
      ]) {
        for (const { v } of (await client.query<{ v: string | null }>(sql)).rows) keep(what, v);
      }
    } finally {
      await client.end();
    }

    // The whole log: the server stopped, and its output read to the end.
    const outputEnded = new Promise((done) => server.child.once('close', done));
    await server.kill('SIGTERM');
    await outputEnded;
    const leaks = [...secrets].filter(([value]) => server.output.includes(value));
    expect(leaks.map(([, what]) => what)).toEqual([]);
    // The run logged what it did, so the search had something to search.
    expect(server.output).toMatch(/"url":"\/auth\?api%4Bey=\[Redacted\]"/);
    expect(server.output).toMatch(/"url":"\/oauth\/test\?[^"]*code=\[Redacted\]/);
    expect(secrets.size).toBeGreaterThan(20);
  });
});
