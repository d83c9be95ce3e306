import request from 'supertest';
import {
  apiKeyUser,
  createTestApp,
  HEAVY_FETCH as HEAVY,
  postFetch,
  TestApp,
} from './helpers/test-app';

/**
 * One user cannot take the pool: FETCH queries and workflows take turns, at most
 * STATEMENTS_PER_USER at a time per user and the pool less DATABASE_POOL_RESERVED in all.
 */
describe('turns for FETCH queries and workflows', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      STATEMENT_TIMEOUT_MS: '2500',
      DATABASE_POOL_SIZE: '5',
      DATABASE_POOL_RESERVED: '2',
      STATEMENTS_PER_USER: '2',
    });
  });
  afterAll(() => t.close());

  /** Heavy statements the database is running now. */
  const heavyRunning = async () =>
    (
      await t.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE state = 'active' AND query LIKE '%invoice_line%' AND query LIKE '%count(*)%'
            AND datname = current_database() AND pid <> pg_backend_pid()`,
      )
    )[0].n as number;
  const until = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 2000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((done) => setTimeout(done, 20));
    }
  };

  it('refuses a user past their share with 429 and Retry-After, and keeps answering the others', async () => {
    const { key } = await apiKeyUser(t);
    const heavy = Array.from({ length: 10 }, () => postFetch(t, key, HEAVY).then((r) => r));
    await until(async () => (await heavyRunning()) === 2);
    // Entity reads of the same user and of another are not held up behind the queries.
    const started = Date.now();
    await request(t.http).get('/rest/entity/account/1').set('X-API-Key', key).expect(200);
    const other = await apiKeyUser(t);
    await postFetch(t, other.key, 'FETCH account (name) LIMIT 1').expect(200);
    // Held up, they would wait for a heavy query's end (STATEMENT_TIMEOUT_MS, 2.5 s).
    expect(Date.now() - started).toBeLessThan(2000);

    const responses = await Promise.all(heavy);
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([429, 429, 429, 429, 429, 429, 429, 429, 503, 503]);
    const refused = responses.find((r) => r.status === 429)!;
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.detail).toMatch(/2 queries or workflows running/);
    // Their turns are given back: the user runs queries again.
    await postFetch(t, key, 'FETCH account (name) LIMIT 1').expect(200);
  });

  it('counts a workflow in the same share as the queries', async () => {
    const { key } = await apiKeyUser(t);
    const heavy = [
      postFetch(t, key, HEAVY).then((r) => r),
      postFetch(t, key, HEAVY).then((r) => r),
    ];
    await until(async () => (await heavyRunning()) === 2);
    const workflow = await request(t.http)
      .post('/rest/workflow/invoicing/summary')
      .set('X-API-Key', key)
      .send({ accountKey: 1, from: '2020-01-01T00:00:00', to: '2030-01-01T00:00:00' })
      .expect(429);
    expect(workflow.headers['retry-after']).toBe('1');
    await Promise.all(heavy);
  });

  it('leaves the reserved connections to other requests when many users query at once', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => apiKeyUser(t)));
    const heavy = users.map(({ key }) => postFetch(t, key, HEAVY).then((r) => r));
    await until(async () => (await heavyRunning()) === 3);
    await new Promise((done) => setTimeout(done, 200));
    expect(await heavyRunning()).toBe(3); // the pool of 5 less the 2 reserved
    const started = Date.now();
    await request(t.http).get('/rest/entity/account/1').set('X-API-Key', users[0].key).expect(200);
    await request(t.http).get('/health').expect(200);
    // Held up, they would wait for a heavy query's end (STATEMENT_TIMEOUT_MS, 2.5 s).
    expect(Date.now() - started).toBeLessThan(2000);
    // The others waited for a turn rather than being refused.
    const statuses = (await Promise.all(heavy)).map((r) => r.status);
    expect(statuses).toEqual([503, 503, 503, 503, 503]);
  });
});
