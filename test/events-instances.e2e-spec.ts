import { Injectable, Module } from '@nestjs/common';
import request from 'supertest';
import type { EntityEvent } from '../src/events/entity-event';
import { Job, OnEntityEvent } from '../src/events/event.decorators';
import { waitFor } from './helpers/postmaster';
import { apiKeyFor, apiKeyUser, createTestApp, seedAdmin, TestApp } from './helpers/test-app';
import { deliveriesEnded, WebhookReceiver } from './helpers/webhook-receiver';

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
      apps.push(
        await createTestApp(
          {
            EVENTS_POLL_MS: '100',
            WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
            WEBHOOK_RETRIES: '0',
            WEBHOOK_DISABLE_AFTER: '5',
          },
          [CountingModule],
        ),
      );
    }
    const { userKey, key } = await apiKeyUser(apps[0]);
    keys.push(key, await apiKeyFor(apps[1], userKey));
    const { user, key: admin } = await seedAdmin(apps[0]);
    admins.push(admin, await apiKeyFor(apps[1], user.key));
    await receiver.start();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await receiver.stop();
  });

  const admins: string[] = [];
  const receiver = new WebhookReceiver();

  /** A webhook on contact.created made through the first instance. */
  const webhook = async (path: string): Promise<number> =>
    (
      await request(apps[0].http)
        .post('/rest/webhooks')
        .set('X-API-Key', admins[0])
        .send({ name: path, url: `${receiver.url}${path}`, events: 'contact.created' })
        .expect(201)
    ).body.key as number;

  /** `count` contacts made at once, each through either instance in turn. */
  const contacts = (count: number, name: string) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        request(apps[i % 2].http)
          .post('/rest/entity/contact')
          .set('X-API-Key', admins[i % 2])
          .send({ entity_name: 'contact', properties: { last_name: `${name} ${i}` } })
          .expect(200),
      ),
    );

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

  it('delivers each webhook event once, whichever instance dispatches and delivers it', async () => {
    const hook = await webhook('/ok/twins');
    await contacts(40, 'Hooked');
    await waitFor(() => receiver.bodies('/ok/twins').length >= 40, 30_000);
    let log: { eventId: string; state: string; attempts: unknown[] }[] = [];
    await waitFor(async () => {
      log = (
        await request(apps[1].http)
          .get(`/rest/webhooks/${hook}/deliveries?limit=200`)
          .set('X-API-Key', admins[1])
          .expect(200)
      ).body;
      return log.length === 40 && log.every((d) => d.state === 'delivered');
    }, 30_000);
    const ids = receiver.received
      .filter((r) => r.path === '/ok/twins')
      .map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(log.map((d) => d.attempts.length)).toEqual(log.map(() => 1));
  });

  it('turns a failing webhook off once, however many instances count its failures at once', async () => {
    const hook = await webhook('/fail/twins');
    const failing = (await contacts(20, 'Failing')).map(({ body }) => body.key as number);
    const history = async () =>
      (
        await request(apps[0].http)
          .get(`/rest/entity/webhook/${hook}/history`)
          .set('X-API-Key', admins[0])
          .expect(200)
      ).body as { operation: string; actor: { via: string }; changes: object }[];
    await waitFor(async () => (await history()).some((e) => e.actor.via === 'system'), 30_000);
    // Every delivery of the run ended (failed, or dropped once the webhook was off).
    await waitFor(() => deliveriesEnded(apps[0].dataSource, hook, 'contact', failing), 30_000);
    const turnedOff = (await history()).filter((e) => e.actor.via === 'system');
    expect(turnedOff).toEqual([
      expect.objectContaining({
        operation: 'updated',
        changes: expect.objectContaining({ active: { old: true, new: false } }),
      }),
    ]);
    const [row] = await apps[0].dataSource.query(
      'SELECT active, disabled_reason AS reason FROM webhook WHERE key = $1',
      [hook],
    );
    expect(row).toEqual({
      active: false,
      reason: 'Turned off after 5 failed attempts in a row; the last: HTTP 500',
    });
  });
});
