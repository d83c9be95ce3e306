import { Injectable, Module } from '@nestjs/common';
import request from 'supertest';
import type { EntityEvent } from '../src/events/entity-event';
import { Job, OnEntityEvent } from '../src/events/event.decorators';
import { waitFor } from './helpers/postmaster';
import { apiKeyFor, apiKeyUser, createTestApp, TestApp } from './helpers/test-app';

/** How many times each event id was handled, across both instances. */
const handled = new Map<string, number>();

@Injectable()
class CountingSubscriber {
  @OnEntityEvent('contact', ['created'])
  count(event: EntityEvent): Promise<void> {
    handled.set(event.id, (handled.get(event.id) ?? 0) + 1);
    return Promise.resolve();
  }

  @Job('instances-nightly', { schedule: '0 3 * * *' })
  nightly(): Promise<void> {
    return Promise.resolve();
  }
}

@Module({ providers: [CountingSubscriber] })
class CountingModule {}

describe('events with two instances on one database', () => {
  const apps: TestApp[] = [];
  const keys: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      apps.push(await createTestApp({ EVENTS_POLL_MS: '100' }, [CountingModule]));
    }
    const { userKey, key } = await apiKeyUser(apps[0]);
    keys.push(key, await apiKeyFor(apps[1], userKey));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('handles each event once, whichever instance dispatches and works it', async () => {
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        request(apps[i % 2].http)
          .post('/rest/entity/contact')
          .set('X-API-Key', keys[i % 2])
          .send({ entity_name: 'contact', properties: { last_name: `Twin ${i}` } })
          .expect(200),
      ),
    );
    const records = created.map(({ body }) => body.key as number);
    const entries: { key: string }[] = await apps[0].dataSource.query(
      `SELECT key::text FROM change_log WHERE entity = 'contact' AND record_key = ANY($1::int8[])`,
      [records],
    );
    expect(entries).toHaveLength(40);
    await waitFor(() => entries.every(({ key }) => handled.has(key)), 30_000);
    expect(entries.map(({ key }) => handled.get(key))).toEqual(entries.map(() => 1));
    // On a shared database the dispatcher may also send earlier files' contacts: count ours.
    const jobs = await apps[0].dataSource.query(
      `SELECT count(*)::int AS n FROM pgboss.job
        WHERE name = 'event/CountingSubscriber.count' AND data->'payload'->>'id' = ANY($1::text[])`,
      [entries.map(({ key }) => key)],
    );
    expect(jobs[0].n).toBe(40);
  });

  it('keeps one schedule of a job, whichever instances declared it', async () => {
    const schedules = await apps[0].dataSource.query(
      `SELECT name, cron FROM pgboss.schedule WHERE name = 'instances-nightly'`,
    );
    expect(schedules).toEqual([{ name: 'instances-nightly', cron: '0 3 * * *' }]);
  });
});
