import request from 'supertest';
import { setTimeout as sleep } from 'node:timers/promises';
import { ACTIVE_MS, StatementSlots } from '../src/http/statement-slots';
import {
  apiKeyUser,
  createTestApp,
  HEAVY_FETCH as HEAVY,
  postFetch,
  TestApp,
} from './helpers/test-app';

/**
 * One user cannot take the pool: FETCH queries and workflows take turns, at most
 * STATEMENTS_PER_USER at a time per user (less while others query too) and the pool less
 * DATABASE_POOL_RESERVED in all;
 * beyond, they wait for a turn, at most STATEMENT_WAIT_MS and STATEMENTS_QUEUED_PER_USER
 * of them per user, then 429.
 */
describe('turns for FETCH queries and workflows', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      STATEMENT_TIMEOUT_MS: '2500',
      DATABASE_POOL_SIZE: '5',
      DATABASE_POOL_RESERVED: '2',
      STATEMENTS_PER_USER: '2',
      // Longer than a heavy query runs (it is cancelled at 2.5 s), shorter than two.
      STATEMENT_WAIT_MS: '4000',
      STATEMENTS_QUEUED_PER_USER: '3',
    });
  });
  afterAll(() => t.close());
  // A user shares the turns for ACTIVE_MS after its last one ended: each test starts once
  // the previous test's users no longer count, so that its own user runs its full share.
  beforeEach(() => sleep(ACTIVE_MS));

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

  /** The response, and when it came. */
  const timed = (test: request.Test) => test.then((response) => ({ response, at: Date.now() }));
  /** Whether any of `requests` has been answered yet. */
  const answered = (requests: Promise<unknown>[]) => {
    const state = { any: false };
    const answer = () => void (state.any = true);
    void Promise.race(requests).then(answer, answer);
    return state;
  };
  /**
   * The turns asked for and the turns begun (the work started) from now on, counted on the
   * app's StatementSlots, whose calls pass through.
   */
  const countTurns = () => {
    const slots = t.app.get(StatementSlots);
    const run = slots.run.bind(slots);
    const counts = { asked: 0, begun: 0 };
    const spy = jest.spyOn(slots, 'run').mockImplementation((userKey, work) => {
      counts.asked++;
      return run(userKey, () => {
        counts.begun++;
        return work();
      });
    });
    return { counts, restore: () => spy.mockRestore() };
  };

  it("holds a user's query past their share until one of theirs ends, and keeps answering the others", async () => {
    const { key } = await apiKeyUser(t);
    const other = await apiKeyUser(t);
    const heavy = [timed(postFetch(t, key, HEAVY)), timed(postFetch(t, key, HEAVY))];
    const heavyAnswered = answered(heavy);
    await until(async () => (await heavyRunning()) === 2);
    const light = timed(postFetch(t, key, 'FETCH account (name) LIMIT 1'));
    // An entity read of the same user and another user's query are not held up behind the
    // queries: both are answered while the queries still run. Held up, they would wait for
    // a heavy query's end (STATEMENT_TIMEOUT_MS), and come after its answer.
    await request(t.http).get('/rest/entity/account/1').set('X-API-Key', key).expect(200);
    await postFetch(t, other.key, 'FETCH account (name) LIMIT 1').expect(200);
    expect(heavyAnswered.any).toBe(false);

    const [first, second] = await Promise.all(heavy);
    const waited = await light;
    expect([first.response.status, second.response.status, waited.response.status]).toEqual([
      503, 503, 200,
    ]);
    expect(waited.at).toBeGreaterThanOrEqual(Math.min(first.at, second.at));
  });

  it('refuses what waits longer than STATEMENT_WAIT_MS, or beyond STATEMENTS_QUEUED_PER_USER, with 429 and Retry-After', async () => {
    const { key } = await apiKeyUser(t);
    const running = [
      postFetch(t, key, HEAVY).then((r) => r),
      postFetch(t, key, HEAVY).then((r) => r),
    ];
    await until(async () => (await heavyRunning()) === 2);
    // Three wait: two start when the first two are cancelled at 2.5 s, the third waits 4 s
    // for a turn that comes at 5 s. Five more find the queue full.
    const more = Array.from({ length: 8 }, () => postFetch(t, key, HEAVY).then((r) => r));
    const responses = [...(await Promise.all(running)), ...(await Promise.all(more))];
    const details = responses
      .filter((r) => r.status === 429)
      .map((r) => {
        expect(r.headers['retry-after']).toBe('1');
        return (r.body.detail as string).replace(/\d+/g, 'N');
      })
      .sort();
    expect(responses.map((r) => r.status).sort()).toEqual([
      429, 429, 429, 429, 429, 429, 503, 503, 503, 503,
    ]);
    expect(details).toEqual([
      'This query or workflow waited N ms for a turn and none was free (you have N running): try again soon',
      ...Array(5).fill(
        'You have N queries or workflows running and N waiting, the most this server holds for one user: try again soon',
      ),
    ]);
    // Their turns are given back: the user runs queries again.
    await postFetch(t, key, 'FETCH account (name) LIMIT 1').expect(200);
  });

  it('counts a workflow in the same share as the queries', async () => {
    const { key } = await apiKeyUser(t);
    const heavy = [timed(postFetch(t, key, HEAVY)), timed(postFetch(t, key, HEAVY))];
    await until(async () => (await heavyRunning()) === 2);
    const workflow = await timed(
      request(t.http)
        .post('/rest/workflow/invoicing/summary')
        .set('X-API-Key', key)
        .send({ accountKey: 1, from: '2020-01-01T00:00:00', to: '2030-01-01T00:00:00' }),
    );
    const ended = await Promise.all(heavy);
    expect(workflow.response.status).toBe(200);
    // It ran once a query had ended and given its turn back.
    expect(workflow.at).toBeGreaterThanOrEqual(Math.min(...ended.map((e) => e.at)));
  });

  it('leaves the reserved connections to other requests when many users query at once', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => apiKeyUser(t)));
    const turns = countTurns();
    try {
      const heavy = users.map(({ key }) => postFetch(t, key, HEAVY).then((r) => r));
      const heavyAnswered = answered(heavy);
      // All five have asked for a turn: three have one, the pool of 5 less the 2 reserved;
      // the other two wait for one, which none can have before a running query ends.
      await until(async () => turns.counts.asked === 5);
      expect(turns.counts.begun).toBe(3);
      await until(async () => (await heavyRunning()) === 3);
      // Entity reads and the health check find a connection: answered while the queries
      // run. Held up, they would wait for a heavy query's end, and come after its answer.
      await request(t.http)
        .get('/rest/entity/account/1')
        .set('X-API-Key', users[0].key)
        .expect(200);
      await request(t.http).get('/health').expect(200);
      expect(heavyAnswered.any).toBe(false);
      // The others waited for a turn rather than being refused (within STATEMENT_WAIT_MS).
      const statuses = (await Promise.all(heavy)).map((r) => r.status);
      expect(statuses).toEqual([503, 503, 503, 503, 503]);
      expect(turns.counts.begun).toBe(5);
    } finally {
      turns.restore();
    }
  });
});
