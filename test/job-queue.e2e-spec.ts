import { Injectable, Module } from '@nestjs/common';
import request from 'supertest';
import type { EntityEvent } from '../src/events/entity-event';
import { Job, OnEntityEvent } from '../src/events/event.decorators';
import { JobQueue } from '../src/queue/job-queue.service';
import { waitFor } from './helpers/postmaster';
import { apiKeyUser, createTestApp, TestApp } from './helpers/test-app';

/** What the concurrent subscriber saw: each product's events in the order handled. */
const handledOf = new Map<number, string[]>();
let running = 0;
let mostAtOnce = 0;

@Injectable()
class ConcurrentSubscriber {
  @OnEntityEvent('product', ['created', 'updated'], { concurrency: 3 })
  async handle(event: EntityEvent): Promise<void> {
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    const seen = handledOf.get(event.key!) ?? [];
    seen.push(event.id);
    handledOf.set(event.key!, seen);
    // Long enough for other records' events to be taken meanwhile.
    await new Promise((done) => setTimeout(done, 30));
    running--;
  }
}

@Injectable()
class NightlyJob {
  @Job('queue-suite-nightly', { schedule: '0 4 * * *' })
  run(): Promise<void> {
    return Promise.resolve();
  }
}

@Module({ providers: [ConcurrentSubscriber] })
class ConcurrentModule {}

@Module({ providers: [NightlyJob] })
class NightlyModule {}

describe('the job queue', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ EVENTS_POLL_MS: '100' }, [ConcurrentModule]);
  });
  afterAll(() => t.close());

  const queueRow = async (name: string) =>
    (
      await t.dataSource.query(
        `SELECT retry_limit AS "retryLimit", retry_delay AS "retryDelay",
                expire_seconds AS "expireInSeconds", dead_letter AS "deadLetter"
           FROM pgboss.queue WHERE name = $1`,
        [name],
      )
    )[0] as Record<string, unknown>;

  it("sets an option the code no longer gives back to pg-boss's default, and names the dead letters", async () => {
    const queue = t.app.get(JobQueue);
    await queue.declare('queue-suite-reset', { retryLimit: 5, retryDelay: 7, expireInSeconds: 30 });
    expect(await queueRow('queue-suite-reset')).toEqual({
      retryLimit: 5,
      retryDelay: 7,
      expireInSeconds: 30,
      deadLetter: 'dead-letters',
    });
    await queue.declare('queue-suite-reset', { retryLimit: 5 });
    expect(await queueRow('queue-suite-reset')).toEqual({
      retryLimit: 5,
      retryDelay: 0,
      expireInSeconds: 900,
      deadLetter: 'dead-letters',
    });
  });

  it("handles a subscriber's events several at once, and a record's one after the other in order", async () => {
    const { key } = await apiKeyUser(t, { isAdmin: true });
    const post = (path: string, properties: object) =>
      request(t.http)
        .post(path)
        .set('X-API-Key', key)
        .send({ entity_name: 'product', properties })
        .expect(200);
    const products = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const { body } = await post('/rest/entity/product', { code: `CONC-${Date.now()}-${i}` });
        return body.key as number;
      }),
    );
    for (const round of [1, 2]) {
      await Promise.all(
        products.map((product) =>
          post(`/rest/entity/product/${product}`, { name: `round ${round}` }),
        ),
      );
    }
    await waitFor(() => products.every((p) => handledOf.get(p)?.length === 3), 20_000);
    expect(mostAtOnce).toBeGreaterThan(1);
    for (const product of products) {
      const entries: { key: string }[] = await t.dataSource.query(
        `SELECT key::text FROM change_log WHERE entity = 'product' AND record_key = $1
          ORDER BY key`,
        [product],
      );
      expect(handledOf.get(product)).toEqual(entries.map(({ key }) => key));
    }
  });
  // Last: an app booted beside another in one process takes over its sign-in strategies
  // (passport's are the process's), so none is asked of this suite's app after these close.
  it('ends a schedule no live instance has, and keeps one while an instance that has it runs', async () => {
    const scheduled = async () =>
      (
        await t.dataSource.query(`SELECT cron FROM pgboss.schedule WHERE name = $1`, [
          'queue-suite-nightly',
        ])
      ).map((row: { cron: string }) => row.cron);
    const withIt = await createTestApp({}, [NightlyModule]);
    try {
      expect(await scheduled()).toEqual(['0 4 * * *']);
      // Another version, without the job, boots beside it: the schedule stays.
      const without = await createTestApp();
      await without.close();
      expect(await scheduled()).toEqual(['0 4 * * *']);
    } finally {
      await withIt.close();
    }
    // The last instance that had it has stopped: the next boot ends it.
    const after = await createTestApp();
    await after.close();
    expect(await scheduled()).toEqual([]);
  });
});
