import request from 'supertest';
import { createSecondTestApp, createTestApp, createUser, TestApp } from './helpers/test-app';

const ENV = {
  LOGIN_MAX_FAILURES_PER_USER_AND_ADDRESS: '3',
  LOGIN_MAX_FAILURES_PER_ADDRESS: '6',
  LOGIN_USER_FAILURES_BEFORE_DELAY: '4',
  LOGIN_USER_MAX_DELAY_SECONDS: '2',
  LOGIN_FAILURE_WINDOW_SECONDS: '60',
  TRUST_PROXY: 'true',
};

/** Two instances on one database: the counts are the database's, not a process's. */
describe('login throttling', () => {
  let t: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    t = await createTestApp(ENV);
    other = await createSecondTestApp(ENV);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const attempt = (user: string, password: string, address: string, app = t) =>
    request(app.http).post('/auth').set('X-Forwarded-For', address).send({ user, password });

  it('refuses a user from one address after its failures with 429 and Retry-After, even with the right password', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 3; i++) await attempt(user.userName, 'wrong-password', '10.0.0.1');
    const refused = await attempt(user.userName, user.password, '10.0.0.1').expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(2);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.body.detail).toMatch(/Too many failed attempts/);
  });

  it('does not lock the user out from other addresses: a stranger cannot keep them out', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 3; i++) {
      await attempt(user.userName, 'wrong-password', '10.0.4.1').expect(401);
    }
    await attempt(user.userName, 'wrong-password', '10.0.4.1').expect(429);
    await attempt(user.userName, user.password, '10.0.4.2').expect(200);
  });

  it('spaces attempts at a user out after failures from anywhere: 1, 2 … seconds, up to the maximum', async () => {
    const user = await createUser(t);
    // The limits' clock (Date.now), stopped: it moves only as the test moves it, so each
    // wait is exactly what the rule gives, however long the requests take.
    let now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      for (let i = 0; i < 4; i++) {
        await attempt(user.userName, 'wrong-password', `10.0.5.${i}`).expect(401);
      }
      // The 5th attempt passes (its delay, a second, starts now); the next must wait for it.
      await attempt(user.userName, 'wrong-password', '10.0.5.10').expect(401);
      now += 250;
      const early = await attempt(user.userName, user.password, '10.0.5.11').expect(429);
      expect(early.headers['retry-after']).toBe('1');
      now += 750;
      // A failure once its turn has come: the next delay is twice as long.
      await attempt(user.userName, 'wrong-password', '10.0.5.12').expect(401);
      now += 250;
      const doubled = await attempt(user.userName, user.password, '10.0.5.13').expect(429);
      expect(doubled.headers['retry-after']).toBe('2');
      now += 1000; // a second of the two is left
      const later = await attempt(user.userName, user.password, '10.0.5.14').expect(429);
      expect(later.headers['retry-after']).toBe('1');
      now += 750;
      // Another failure once its turn has come: the delay stays at the maximum (2 s).
      await attempt(user.userName, 'wrong-password', '10.0.5.15').expect(401);
      now += 250;
      const capped = await attempt(user.userName, user.password, '10.0.5.16').expect(429);
      expect(capped.headers['retry-after']).toBe('2');
      now += 1750;
      // The right password, once its turn comes, signs in and clears the count.
      await attempt(user.userName, user.password, '10.0.5.17').expect(200);
      await attempt(user.userName, 'wrong-password', '10.0.5.18').expect(401);
      await attempt(user.userName, user.password, '10.0.5.19').expect(200);
    } finally {
      clock.mockRestore();
    }
  });

  it('counts guesses sent in parallel to two instances: only the free ones and one more get a password check', async () => {
    const user = await createUser(t);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        attempt(user.userName, `wrong-password-${i}`, `10.0.3.${i}`, i % 2 ? other : t),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it('shares the count of a user and address between instances', async () => {
    const user = await createUser(t);
    await attempt(user.userName, 'wrong-password', '10.0.6.1', t).expect(401);
    await attempt(user.userName, 'wrong-password', '10.0.6.1', other).expect(401);
    await attempt(user.userName, 'wrong-password', '10.0.6.1', t).expect(401);
    await attempt(user.userName, user.password, '10.0.6.1', other).expect(429);
  });

  it('counts failures, not logins: successes reset the user’s count', async () => {
    const user = await createUser(t);
    for (let round = 0; round < 3; round++) {
      const address = `10.0.1.${round}`; // each address's own limit is not the point here
      await attempt(user.userName, 'wrong-password', address).expect(401);
      await attempt(user.userName, 'wrong-password', address).expect(401);
      await attempt(user.userName, user.password, address).expect(200);
    }
  });

  it('refuses a client address after repeated failures across user names, on every instance', async () => {
    const address = '10.0.2.1';
    for (let i = 0; i < 6; i++) {
      await attempt(`nobody_${i}`, 'x', address, i % 2 ? other : t).expect(401);
    }
    const user = await createUser(t);
    await attempt(user.userName, user.password, address).expect(429);
    await attempt(user.userName, user.password, address, other).expect(429);
    await attempt(user.userName, user.password, '10.0.2.2').expect(200);
  });
});
