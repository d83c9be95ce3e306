import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startEventsServer as startServer, stopped } from './helpers/events-server';
import { waitFor } from './helpers/postmaster';
import { apiKeyUser, createTestApp, TestApp } from './helpers/test-app';
import { WebhookReceiver } from './helpers/webhook-receiver';

const killed = (child: ChildProcess) => stopped(child, 'SIGKILL');

describe('events across a crash', () => {
  let t: TestApp;
  let key: string;
  let dir: string;
  let eventsFile: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // The suite's database, and a user with an API key made through an app on it. It works
    // no queue: its dispatcher, knowing no subscriber, would pass over the fixture's events
    // (every instance must run the same subscribers, docs/events-webhooks.md).
    t = await createTestApp({ JOBS: 'false' });
    ({ key } = await apiKeyUser(t));
    dir = await mkdtemp(join(tmpdir(), 'atrium-events-'));
    eventsFile = join(dir, 'events');
    await writeFile(eventsFile, '');
  });
  // Each test's servers go with it: another instance would work the next test's queues.
  afterEach(async () => {
    for (const child of children) {
      await killed(child);
    }
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const recorded = async () => (await readFile(eventsFile, 'utf8')).split('\n').filter(Boolean);

  it('delivers the event of a write committed just before a SIGKILL, once, after the restart', async () => {
    const env = {
      DATABASE_URL: process.env.ATRIUM_TEST_DATABASE_URL!,
      EVENTS_FILE: eventsFile,
      EVENTS_POLL_MS: '200',
    };
    // An instance that works no queue: it commits the write, and dies before any delivery.
    const first = await startServer({ ...env, JOBS: 'false' });
    children.push(first.child);
    const { body } = await request(first.url)
      .post('/rest/entity/account')
      .set('X-API-Key', key)
      .send({ entity_name: 'account', properties: { name: 'Written before the crash' } })
      .expect(200);
    await killed(first.child);
    const [{ key: entryKey }] = await t.dataSource.query(
      `SELECT key FROM change_log WHERE entity = 'account' AND record_key = $1`,
      [body.key],
    );
    expect(await recorded()).not.toContain(String(entryKey));

    const second = await startServer({ ...env, JOBS: 'true' });
    children.push(second.child);
    await waitFor(async () => (await recorded()).includes(String(entryKey)), 30_000);
    // A later write's event arrives after it: by then this one was not sent twice.
    const later = await request(second.url)
      .post('/rest/entity/account')
      .set('X-API-Key', key)
      .send({ entity_name: 'account', properties: { name: 'Written after the restart' } })
      .expect(200);
    const [{ key: laterEntry }] = await t.dataSource.query(
      `SELECT key FROM change_log WHERE entity = 'account' AND record_key = $1`,
      [later.body.key],
    );
    await waitFor(async () => (await recorded()).includes(String(laterEntry)), 30_000);
    expect((await recorded()).filter((id) => id === String(entryKey))).toHaveLength(1);
  });

  /** A webhook made through `server`, for contacts created, and a contact created. */
  async function webhookAndContact(
    server: string,
    adminKey: string,
    url: string,
  ): Promise<{ webhook: number }> {
    const { body: hook } = await request(server)
      .post('/rest/webhooks')
      .set('X-API-Key', adminKey)
      .send({ name: 'crash', url, events: 'contact.created' })
      .expect(201);
    await request(server)
      .post('/rest/entity/contact')
      .set('X-API-Key', adminKey)
      .send({ entity_name: 'contact', properties: { last_name: 'Sent as it died' } })
      .expect(200);
    return { webhook: hook.key as number };
  }

  /** After a restart: the same event sent again, and its delivery recorded once, delivered. */
  async function deliveredAgain(
    receiver: WebhookReceiver,
    path: string,
    server: string,
    adminKey: string,
    webhook: number,
  ): Promise<void> {
    await waitFor(() => receiver.bodies(path).length > 1, 30_000);
    const [sent, again] = receiver.received.filter((r) => r.path === path);
    expect(again.headers['webhook-id']).toBe(sent.headers['webhook-id']);
    // The same event (an attempt that was never recorded fixed no bytes).
    expect(JSON.parse(again.body)).toEqual(JSON.parse(sent.body));
    let log: { state: string; attempts: { status?: number }[] }[] = [];
    await waitFor(async () => {
      log = (
        await request(server)
          .get(`/rest/webhooks/${webhook}/deliveries`)
          .set('X-API-Key', adminKey)
          .expect(200)
      ).body;
      return log.some((d) => d.state === 'delivered');
    }, 30_000);
    expect(log).toHaveLength(1);
    expect(log[0].attempts.map((a) => a.status)).toEqual([200]);
  }

  const webhookEnv = () => ({
    DATABASE_URL: process.env.ATRIUM_TEST_DATABASE_URL!,
    EVENTS_FILE: eventsFile,
    EVENTS_POLL_MS: '200',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    // A delivery's job comes due four timeouts after the event: 4 s.
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_RETRY_SECONDS: '1',
    JOBS: 'true',
  });

  /** A receiver on loopback for `work`, stopped after it. */
  async function withReceiver(work: (receiver: WebhookReceiver) => Promise<void>): Promise<void> {
    const receiver = new WebhookReceiver();
    await receiver.start();
    try {
      await work(receiver);
    } finally {
      await receiver.stop();
    }
  }

  /** Resolves once `child` is gone: killed as the `nth` request to `path` arrives. */
  function killedOnRequest(
    receiver: WebhookReceiver,
    path: string,
    nth: number,
    child: ChildProcess,
  ): Promise<void> {
    return new Promise((done) => {
      receiver.onReceived = ({ path: at }) => {
        if (at !== path || receiver.bodies(path).length !== nth) return;
        child.kill('SIGKILL');
        child.once('exit', () => done());
      };
    });
  }

  const recordedFor = async (webhook: number) => ({
    deliveries: Number(
      (
        await t.dataSource.query(
          'SELECT count(*) AS n FROM webhook_delivery WHERE id_webhook = $1',
          [webhook],
        )
      )[0].n,
    ),
    jobs: Number(
      (
        await t.dataSource.query(
          `SELECT count(*) AS n FROM pgboss.job WHERE name = 'webhook-delivery'
              AND (data->'payload'->>'webhook')::int8 = $1`,
          [webhook],
        )
      )[0].n,
    ),
  });

  it("sends a webhook's event again after a SIGKILL between its commit and its first attempt's record: the entry is read again", async () => {
    await withReceiver(async (receiver) => {
      const admin = await apiKeyUser(t, { isAdmin: true });
      const first = await startServer(webhookEnv());
      children.push(first.child);
      const path = `/hang-once/before-record-${Date.now()}`;
      // As the first attempt arrives, while its dispatcher pass waits for the answer.
      const died = killedOnRequest(receiver, path, 1, first.child);
      const { webhook } = await webhookAndContact(first.url, admin.key, `${receiver.url}${path}`);
      await died;
      // Nothing of the delivery was written: no job, no record (its pass never committed).
      expect(await recordedFor(webhook)).toEqual({ deliveries: 0, jobs: 0 });

      const second = await startServer(webhookEnv());
      children.push(second.child);
      await deliveredAgain(receiver, path, second.url, admin.key, webhook);
    });
  });

  it("delivers a webhook's event after a SIGKILL while a slow receiver holds its first attempt, from its job", async () => {
    await withReceiver(async (receiver) => {
      const admin = await apiKeyUser(t, { isAdmin: true });
      const first = await startServer(webhookEnv());
      children.push(first.child);
      const path = `/hang-once/held-${Date.now()}`;
      const { webhook } = await webhookAndContact(first.url, admin.key, `${receiver.url}${path}`);
      // The pass stopped waiting for the answer: the delivery is recorded pending, with a job.
      await waitFor(
        async () =>
          (await recordedFor(webhook)).deliveries === 1 && receiver.bodies(path).length === 1,
        30_000,
      );
      expect(await recordedFor(webhook)).toEqual({ deliveries: 1, jobs: 1 });
      await killed(first.child);

      const second = await startServer(webhookEnv());
      children.push(second.child);
      await deliveredAgain(receiver, path, second.url, admin.key, webhook);
    });
  });

  it('takes back a retry whose instance died during its request, and makes the next attempt within its bound', async () => {
    await withReceiver(async (receiver) => {
      const admin = await apiKeyUser(t, { isAdmin: true });
      const first = await startServer(webhookEnv());
      children.push(first.child);
      const path = `/ok/retry-held-${Date.now()}`;
      // The first attempt fails; its retry, the job's, hangs until the instance dies.
      receiver.script(path, ['fail', 'hang']);
      const died = killedOnRequest(receiver, path, 2, first.child);
      const { webhook } = await webhookAndContact(first.url, admin.key, `${receiver.url}${path}`);
      await died;
      const restarted = Date.now();
      const second = await startServer(webhookEnv());
      children.push(second.child);
      await waitFor(() => receiver.bodies(path).length > 2, 60_000);
      // The run it died with is due again once its bound (two timeouts and ten seconds) has
      // passed, seen by the supervisor within ten seconds, then waits its retry: not the
      // queue's default fifteen minutes.
      expect(Date.now() - restarted).toBeLessThan(45_000);
      let log: { state: string; attempts: { status?: number }[] }[] = [];
      await waitFor(async () => {
        log = (
          await request(second.url)
            .get(`/rest/webhooks/${webhook}/deliveries`)
            .set('X-API-Key', admin.key)
            .expect(200)
        ).body;
        return log[0]?.state === 'delivered';
      }, 30_000);
      // The attempt the dead instance made was never recorded.
      expect(log[0].attempts.map((a) => a.status)).toEqual([500, 200]);
    });
  });
});
