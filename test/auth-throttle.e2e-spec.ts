import request from 'supertest';
import { createTestApp, createUser, TestApp } from './helpers/test-app';

describe('login throttling', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      LOGIN_MAX_FAILURES_PER_USER: '3',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '6',
      LOGIN_FAILURE_WINDOW_SECONDS: '60',
      TRUST_PROXY: 'true',
    });
  });
  afterAll(() => t.close());

  const attempt = (user: string, password: string, address = '10.0.0.1') =>
    request(t.http).post('/auth').set('X-Forwarded-For', address).send({ user, password });

  it('refuses a user after repeated failures with 429 and Retry-After, even with the right password', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 3; i++) await attempt(user.userName, 'wrong-password').expect(401);
    const refused = await attempt(user.userName, user.password).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.body.detail).toMatch(/Too many failed attempts/);
  });

  it('counts guesses sent in parallel: only the limit gets a password check', async () => {
    const user = await createUser(t);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        attempt(user.userName, `wrong-password-${i}`, `10.0.3.${i}`),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it('counts failures, not logins: successes reset the user’s count', async () => {
    const user = await createUser(t);
    for (let round = 0; round < 3; round++) {
      const address = `10.0.1.${round}`;
      await attempt(user.userName, 'wrong-password', address).expect(401);
      await attempt(user.userName, 'wrong-password', address).expect(401);
      await attempt(user.userName, user.password, address).expect(200);
    }
  });

  it('refuses a client address after repeated failures across user names', async () => {
    const address = '10.0.2.1';
    for (let i = 0; i < 6; i++) await attempt(`nobody_${i}`, 'x', address).expect(401);
    const user = await createUser(t);
    await attempt(user.userName, user.password, address).expect(429);
    await attempt(user.userName, user.password, '10.0.2.2').expect(200);
  });
});
