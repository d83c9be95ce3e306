import { randomBytes } from 'node:crypto';
import packageJson from '../package.json';
import request from 'supertest';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { createSecondTestApp, createTestApp, createUser, login, TestApp } from './helpers/test-app';

/** Timed pairs of a wrong password and an unknown user (odd: the median is one of them). */
const TIMED_PAIRS = 9;

describe('POST /auth and GET /auth', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /auth without credentials reports the server and no user fields', async () => {
    const { body } = await request(t.http).get('/auth').expect(200);
    expect(body).toEqual({
      clientAdress: expect.stringMatching(/127\.0\.0\.1/),
      oidcIssuer: '',
      name: 'Atrium',
      isSecure: false,
      version: packageJson.version,
    });
  });

  it('logs in with a JSON body and returns the info object with the user fields as numbers', async () => {
    const response = await request(t.http)
      .post('/auth')
      .send({ user: 'admin', password: TEST_ADMIN_PASSWORD })
      .expect(200);
    expect(response.body).toMatchObject({
      userName: 'admin',
      userFullName: 'admin',
      name: 'Atrium',
    });
    for (const field of ['userKey', 'userBusinessUnitKey', 'userOrganizationKey']) {
      expect(typeof response.body[field]).toBe('number');
    }
  });

  it('logs in with a form body and sets the three cookies of spec 5.3 and the CSRF header', async () => {
    const response = await request(t.http)
      .post('/auth')
      .type('form')
      .send({ user: 'admin', password: TEST_ADMIN_PASSWORD, locale: 'EN' })
      .expect(200);
    const cookies = response.headers['set-cookie'] as unknown as string[];
    const byName = Object.fromEntries(cookies.map((c) => [c.split('=')[0], c]));
    expect(byName['svc.rest.auth.token']).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(byName['svc.rest.csrf.token']).toMatch(/; Path=\/; HttpOnly; Secure$/);
    expect(byName['svc.rest.locale']).toBe('svc.rest.locale=EN; Path=/; Secure');
    const csrfCookie = byName['svc.rest.csrf.token'].split(';')[0].split('=')[1];
    expect(response.headers['x-csrf-token']).toBe(csrfCookie);
  });

  it('defaults the locale to RO', async () => {
    const response = await request(t.http)
      .post('/auth')
      .send({ user: 'admin', password: TEST_ADMIN_PASSWORD })
      .expect(200);
    expect(response.headers['set-cookie']).toContain('svc.rest.locale=RO; Path=/; Secure');
  });

  it('takes an empty locale field of a form as the default RO', async () => {
    const response = await request(t.http)
      .post('/auth')
      .type('form')
      .send({ user: 'admin', password: TEST_ADMIN_PASSWORD, locale: '' })
      .expect(200);
    expect(response.headers['set-cookie']).toContain('svc.rest.locale=RO; Path=/; Secure');
  });

  it('authenticates GET /auth by the session cookie', async () => {
    const credentials = await login(t, 'admin', TEST_ADMIN_PASSWORD);
    const { body } = await request(t.http)
      .get('/auth')
      .set('Cookie', credentials.cookie)
      .expect(200);
    expect(body.userName).toBe('admin');
  });

  it('answers a wrong password and an unknown user with the same 401 body in similar time', async () => {
    // An app of its own that takes the address from X-Forwarded-For: each attempt comes
    // from an address of its own, so no login limit is met (nor the other tests' counts of
    // 127.0.0.1 raised), and the user's delay starts only past the attempts made here.
    const timing = await createSecondTestApp({
      TRUST_PROXY: 'true',
      LOGIN_USER_FAILURES_BEFORE_DELAY: '100',
    });
    try {
      const { userName } = await createUser(t);
      const timed = async (user: string) => {
        const address = `10.${[...randomBytes(3)].join('.')}`;
        const started = process.hrtime.bigint();
        const response = await request(timing.http)
          .post('/auth')
          .set('X-Forwarded-For', address)
          .send({ user, password: 'wrong-password' });
        return { response, ms: Number(process.hrtime.bigint() - started) / 1e6 };
      };
      const ms = { wrong: [] as number[], unknown: [] as number[] };
      // Pairs of one attempt each, either first in turn, so that a load on the machine falls
      // on both alike; the first pair only warms up.
      for (let i = 0; i <= TIMED_PAIRS; i++) {
        const attempt = { wrong: userName, unknown: `nobody_${i}_${userName}` };
        const kinds =
          i % 2 === 0 ? (['wrong', 'unknown'] as const) : (['unknown', 'wrong'] as const);
        const answers = [];
        for (const kind of kinds) {
          const { response, ms: took } = await timed(attempt[kind]);
          answers.push({ status: response.status, body: response.body });
          if (i > 0) ms[kind].push(took);
        }
        expect(answers).toEqual([
          { status: 401, body: { detail: 'Invalid user or password' } },
          { status: 401, body: { detail: 'Invalid user or password' } },
        ]);
      }
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[(xs.length - 1) / 2];
      // Without the dummy hash an unknown user answers ~20x faster than a wrong password;
      // with a costlier one, slower. A load slows both: their ratio stays near 1.
      const ratio = median(ms.unknown) / median(ms.wrong);
      expect(ratio).toBeGreaterThan(1 / 3);
      expect(ratio).toBeLessThan(3);
    } finally {
      await timing.close();
    }
  });

  describe('login CSRF', () => {
    const formLogin = (headers: Record<string, string>) =>
      request(t.http)
        .post('/auth')
        .set(headers)
        .type('form')
        .send({ user: 'admin', password: TEST_ADMIN_PASSWORD });

    it.each([
      [
        'Sec-Fetch-Site: cross-site',
        { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
      ],
      ['an Origin of another host, without Sec-Fetch-Site', { Origin: 'https://evil.example' }],
      ['Origin: null (a sandboxed page)', { Origin: 'null' }],
    ])('refuses a login from %s with 403, setting no cookie', async (_what, headers) => {
      const response = await formLogin(headers).expect(403);
      expect(response.body).toEqual({ detail: expect.stringMatching(/another site/) });
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it.each([
      ['same-origin', { 'Sec-Fetch-Site': 'same-origin' }],
      [
        'same-site (an SPA on a sibling host)',
        { 'Sec-Fetch-Site': 'same-site', Origin: 'https://app.example' },
      ],
      ['a typed URL (none)', { 'Sec-Fetch-Site': 'none' }],
      ['an Origin of this host', { Host: 'atrium.test:8443', Origin: 'https://atrium.test:8443' }],
      ['a client that sends neither (curl)', {}],
    ])('lets a login through from %s', async (_what, headers) => {
      const response = await formLogin(headers).expect(200);
      expect(response.headers['set-cookie']).toBeDefined();
    });
  });

  it('refuses an inactive user with the same 401', async () => {
    const { userName, password, key } = await createUser(t);
    await t.dataSource.query(`UPDATE "user" SET active = false WHERE key = $1`, [key]);
    const { body } = await request(t.http)
      .post('/auth')
      .send({ user: userName, password })
      .expect(401);
    expect(body).toEqual({ detail: 'Invalid user or password' });
  });

  it('rejects a body without a user name with 400 naming the field', async () => {
    const { body } = await request(t.http).post('/auth').send({ password: 'x' }).expect(400);
    expect(body.detail).toMatch(/user/);
  });

  it('rejects a malformed JSON body with 400 {detail}', async () => {
    const { body } = await request(t.http)
      .post('/auth')
      .set('Content-Type', 'application/json')
      .send('{"user":')
      .expect(400);
    expect(body).toEqual({ detail: expect.any(String) });
  });

  it('refuses the token form while no OpenID provider is configured', async () => {
    const { body } = await request(t.http).post('/auth').set('Oidc-Auth-Token', 'abc').expect(401);
    expect(body.detail).toMatch(/OpenID/);
  });
});
