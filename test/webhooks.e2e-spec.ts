import { randomUUID } from 'node:crypto';
import { systemScope } from '../src/access/access.tenant';
import { WebhookRepository } from '../src/webhooks/webhook.repository';
import request from 'supertest';
import { Webhook as Verifier } from 'standardwebhooks';
import { HostResolver } from '../src/webhooks/webhook-addresses';
import { WebhookTransport } from '../src/webhooks/webhook-transport';
import { FailedJob, findFailedJob } from './helpers/failed-jobs';
import { waitFor } from './helpers/postmaster';
import {
  apiKeyFor,
  apiKeyUser,
  createOrganization,
  createTestApp,
  seedAdmin,
  TestApp,
} from './helpers/test-app';
import { deliveriesEnded, WebhookReceiver } from './helpers/webhook-receiver';

interface Delivery {
  key: number;
  jobId: string;
  eventId: string;
  eventType: string;
  state: string;
  attempts: { status?: number; error?: string; durationMs: number }[];
  replayOf: number | null;
  payload?: Record<string, unknown>;
}

/** Retries come a second, then two, apart: a delivery settles within a few seconds. */
const WAIT_MS = 20_000;

describe('webhooks', () => {
  let t: TestApp;
  let admin: string;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({
      EVENTS_POLL_MS: '100',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_TIMEOUT_MS: '500',
      WEBHOOK_RETRIES: '2',
      WEBHOOK_RETRY_SECONDS: '1',
      WEBHOOK_DISABLE_AFTER: '3',
    });
    admin = (await seedAdmin(t)).key;
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const api = (key = admin) => ({
    get: (path: string) => request(t.http).get(path).set('X-API-Key', key),
    post: (path: string) => request(t.http).post(path).set('X-API-Key', key),
    delete: (path: string) => request(t.http).delete(path).set('X-API-Key', key),
  });

  async function webhook(
    path: string,
    events: string,
    extra: Record<string, unknown> = {},
    key = admin,
  ): Promise<{ key: number; secret: string }> {
    const { body } = await api(key)
      .post('/rest/webhooks')
      .send({ name: path, url: `${receiver.url}${path}`, events, ...extra })
      .expect(201);
    return body as { key: number; secret: string };
  }

  async function account(properties: Record<string, unknown>, key = admin): Promise<number> {
    const { body } = await api(key)
      .post('/rest/entity/account')
      .send({ entity_name: 'account', properties })
      .expect(200);
    return body.key as number;
  }

  async function deliveries(webhookKey: number): Promise<Delivery[]> {
    return (await api().get(`/rest/webhooks/${webhookKey}/deliveries`).expect(200))
      .body as Delivery[];
  }

  async function settled(webhookKey: number, count = 1): Promise<Delivery[]> {
    let list: Delivery[] = [];
    await waitFor(async () => {
      list = await deliveries(webhookKey);
      return (
        list.length >= count && list.every((d) => d.state !== 'pending' && d.state !== 'retrying')
      );
    }, WAIT_MS);
    return list;
  }

  it('signs each delivery the Standard Webhooks way, with the event as its body', async () => {
    const hook = await webhook('/ok/signed', 'account.created');
    const key = await account({ name: 'Signed Ltd' });
    await waitFor(() => receiver.bodies('/ok/signed').length > 0, WAIT_MS);
    const [delivered] = receiver.received.filter((r) => r.path === '/ok/signed');
    const event = new Verifier(hook.secret).verify(delivered.body, {
      'webhook-id': delivered.headers['webhook-id'] as string,
      'webhook-timestamp': delivered.headers['webhook-timestamp'] as string,
      'webhook-signature': delivered.headers['webhook-signature'] as string,
    }) as Record<string, unknown>;
    expect(event).toMatchObject({
      type: 'account.created',
      entity: 'account',
      key,
      operation: 'created',
      changes: { name: { new: 'Signed Ltd' } },
    });
    expect(delivered.headers['webhook-id']).toBe(event.id);
    expect(delivered.headers['content-type']).toBe('application/json');
    const [logged] = await settled(hook.key);
    expect(logged).toMatchObject({
      eventId: event.id,
      eventType: 'account.created',
      state: 'delivered',
    });
    expect(logged.attempts).toEqual([expect.objectContaining({ status: 200 })]);
    const { body: one } = await api()
      .get(`/rest/webhooks/${hook.key}/deliveries/${logged.key}`)
      .expect(200);
    expect(one.payload).toEqual(event);
  });

  it('shows the secret once: reads leave it out, and a new one ends the old', async () => {
    const hook = await webhook('/ok/secret', 'contact.created');
    const { body: read } = await api().get(`/rest/entity/webhook/${hook.key}`).expect(200);
    expect(read.properties).toMatchObject({ url: `${receiver.url}/ok/secret`, active: true });
    expect(JSON.stringify(read)).not.toContain(hook.secret);
    expect(read.properties).not.toHaveProperty('secret');
    expect(read.properties).not.toHaveProperty('failures_in_row');
    const { body: fetched } = await api()
      .post('/rest/fetch')
      .send(`FETCH webhook (*) WHERE key = ${hook.key}`)
      .set('Content-Type', 'text/plain')
      .expect(200);
    expect(JSON.stringify(fetched)).not.toContain(hook.secret);

    const { body: renewed } = await api().post(`/rest/webhooks/${hook.key}/secret`).expect(200);
    expect(renewed.secret).toMatch(/^whsec_/);
    expect(renewed.secret).not.toBe(hook.secret);
    await api().post(`/rest/webhooks/${hook.key}/test`).expect(202);
    await waitFor(() => receiver.bodies('/ok/secret').length > 0, WAIT_MS);
    const [sent] = receiver.received.filter((r) => r.path === '/ok/secret');
    const headers = sent.headers as Record<string, string>;
    expect(new Verifier(renewed.secret).verify(sent.body, headers)).toMatchObject({
      type: 'webhook.test',
      webhook: hook.key,
    });
    expect(() => new Verifier(hook.secret).verify(sent.body, headers)).toThrow();
  });

  it('tries a failed delivery again and logs each attempt', async () => {
    const hook = await webhook('/fail-once/retried', 'account.created');
    await account({ name: 'Retried Ltd' });
    const [logged] = await settled(hook.key);
    expect(logged.state).toBe('delivered');
    expect(logged.attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(receiver.bodies('/fail-once/retried')).toHaveLength(2);
  });

  it('records a receiver that hangs, closes the connection or redirects as a failed attempt', async () => {
    const hanging = await webhook('/hang/a', 'account.created');
    const closing = await webhook('/close/b', 'account.created');
    const redirecting = await webhook('/redirect/c', 'account.created');
    await account({ name: 'Unlucky Ltd' });
    const first = async (key: number) => {
      let attempts: Delivery['attempts'] = [];
      await waitFor(async () => {
        attempts = (await deliveries(key))[0]?.attempts ?? [];
        return attempts.length > 0;
      }, WAIT_MS);
      return attempts[0];
    };
    expect(await first(hanging.key)).toMatchObject({ error: 'no answer within 500 ms' });
    expect(await first(closing.key)).toMatchObject({
      error: 'the connection closed before an answer',
    });
    expect(await first(redirecting.key)).toMatchObject({ status: 302 });
    // Redirects are not followed.
    expect(receiver.received.filter((r) => r.path === '/ok/c')).toEqual([]);
  });

  it('makes a delivery past its retries a dead letter, which an administrator retries once more', async () => {
    const path = `/fail/dead-${Date.now()}`;
    const hook = await webhook(path, 'contact.created');
    await api()
      .post('/rest/entity/contact')
      .send({ entity_name: 'contact', properties: { last_name: 'Dead Letter' } })
      .expect(200);
    const [failed] = await settled(hook.key);
    expect(failed.state).toBe('failed');
    expect(failed.attempts.map((a) => a.status)).toEqual([500, 500, 500]);
    let dead: FailedJob | undefined;
    await waitFor(async () => {
      dead = await findFailedJob((path) => api().get(path), failed.jobId);
      return dead !== undefined;
    }, WAIT_MS);
    expect(dead).toMatchObject({
      queue: 'webhook-delivery',
      attempts: 2,
      error: `webhook ${hook.key}: HTTP 500; no attempt is left`,
    });

    receiver.script(path, ['ok']);
    await api().post(`/rest/jobs/failed/${dead!.id}/retry`).expect(204);
    let retried: Delivery | undefined;
    await waitFor(async () => {
      [retried] = await deliveries(hook.key);
      return retried.state === 'delivered';
    }, WAIT_MS);
    expect(retried!.attempts.map((a) => a.status)).toEqual([500, 500, 500, 200]);
  });

  it('turns a webhook off after a run of failed attempts, saying why; turned on, it starts afresh', async () => {
    const hook = await webhook('/fail/off', 'account.created');
    await account({ name: 'Failing Ltd' });
    const [logged] = await settled(hook.key);
    expect(logged.state).toBe('failed');
    expect(logged.attempts.map((a) => a.status)).toEqual([500, 500, 500]);
    const { body: off } = await api().get(`/rest/entity/webhook/${hook.key}`).expect(200);
    expect(off.properties).toMatchObject({ active: false });
    expect(off.properties.disabled_reason).toBe(
      'Turned off after 3 failed attempts in a row; the last: HTTP 500',
    );
    const { body: history } = await api()
      .get(`/rest/entity/webhook/${hook.key}/history`)
      .expect(200);
    expect(history[0]).toMatchObject({
      operation: 'updated',
      changes: { active: { old: true, new: false } },
      actor: { via: 'system' },
    });

    await api()
      .post(`/rest/entity/webhook/${hook.key}`)
      .send({ entity_name: 'webhook', properties: { active: true } })
      .expect(200);
    const { body: on } = await api().get(`/rest/entity/webhook/${hook.key}`).expect(200);
    expect(on.properties).toMatchObject({ active: true, disabled_reason: null });
  });

  it('replays a delivery: the same id and body, a new entry in the log', async () => {
    const hook = await webhook('/ok/replayed', 'account.created');
    await account({ name: 'Replayed Ltd' });
    const [original] = await settled(hook.key);
    const { body } = await api()
      .post(`/rest/webhooks/${hook.key}/deliveries/${original.key}/replay`)
      .expect(202);
    const list = await settled(hook.key, 2);
    expect(list[0]).toMatchObject({
      key: body.delivery,
      replayOf: original.key,
      eventId: original.eventId,
      state: 'delivered',
    });
    const sent = receiver.received.filter((r) => r.path === '/ok/replayed');
    expect(sent).toHaveLength(2);
    expect(sent[1].body).toBe(sent[0].body);
    expect(sent[1].headers['webhook-id']).toBe(sent[0].headers['webhook-id']);
  });

  it("keeps no copy of a body the change log holds, reads it there, and has none once the event's history is purged", async () => {
    const hook = await webhook('/ok/from-log', 'account.created');
    const created = await account({ name: 'Logged Ltd' });
    const [original] = await settled(hook.key);
    const [stored] = await t.dataSource.query(
      'SELECT payload FROM webhook_delivery WHERE key = $1',
      [original.key],
    );
    expect(stored.payload).toBeNull();
    const [sent] = receiver.received.filter((r) => r.path === '/ok/from-log');
    const { body: read } = await api()
      .get(`/rest/webhooks/${hook.key}/deliveries/${original.key}`)
      .expect(200);
    expect(JSON.stringify(read.payload)).toBe(sent.body);

    await api().post(`/rest/entity/account/${created}/history/purge`).expect(200);
    const { body: purged } = await api()
      .get(`/rest/webhooks/${hook.key}/deliveries/${original.key}`)
      .expect(200);
    expect(purged.payload).toBeNull();
    const { body: refused } = await api()
      .post(`/rest/webhooks/${hook.key}/deliveries/${original.key}/replay`)
      .expect(409);
    expect(refused.detail).toBe(
      `Delivery ${original.key} has no body to send again: its event's history was purged`,
    );
    expect(await deliveries(hook.key)).toHaveLength(1);
  });

  it('sends only the changes after which the record meets the condition', async () => {
    const hook = await webhook('/ok/condition', 'account.updated', { condition: "name = 'Paid'" });
    const missed = await account({ name: 'Unpaid' });
    const met = await account({ name: 'Unpaid too' });
    const update = (key: number, name: string) =>
      api()
        .post(`/rest/entity/account/${key}`)
        .send({ entity_name: 'account', properties: { name } })
        .expect(200);
    await update(missed, 'Still unpaid');
    await update(met, 'Paid');
    await waitFor(() => receiver.bodies('/ok/condition').length > 0, WAIT_MS);
    // The other update's delivery was decided too: not sent.
    await waitFor(() => deliveriesEnded(t.dataSource, hook.key, 'account', [missed, met]), WAIT_MS);
    expect(receiver.bodies('/ok/condition').map((e) => e.key)).toEqual([met]);
    expect(await deliveries(hook.key)).toHaveLength(1);
  });

  it('fails alone a delivery whose condition no longer compiles; the others of its batch go', async () => {
    const broken = await webhook('/ok/broken', 'product.created', { condition: "code = 'x'" });
    const fine = await webhook('/ok/fine', 'product.created');
    // As a model change would leave it: the condition names a property no longer there.
    await t.dataSource.query(`UPDATE webhook SET condition = 'nosuch = 1' WHERE key = $1`, [
      broken.key,
    ]);
    await api()
      .post('/rest/entity/product')
      .send({ entity_name: 'product', properties: { code: `P-${Date.now()}` } })
      .expect(200);
    await waitFor(() => receiver.bodies('/ok/fine').length > 0, WAIT_MS);
    const [delivered] = await settled(fine.key);
    expect(delivered.attempts.map((a) => a.status)).toEqual([200]);
    await waitFor(async () => {
      const rows: { output: { message?: string } | null }[] = await t.dataSource.query(
        `SELECT output FROM pgboss.job WHERE name = 'webhook-delivery'
            AND (data->'payload'->>'webhook')::int8 = $1 AND state IN ('retry', 'failed')`,
        [broken.key],
      );
      return rows.some(({ output }) =>
        /condition \(on product\): .*nosuch/.test(output?.message ?? ''),
      );
    }, WAIT_MS);
    expect(receiver.bodies('/ok/broken')).toEqual([]);
  });

  it("cuts the payload to what the webhook's owner may read, and sends no other organization's events", async () => {
    const owner = await apiKeyUser(t, { isAdmin: true, roles: ['support'] });
    const hook = await webhook('/ok/owner', 'account.created', {}, owner.key);
    // No longer an administrator: the support role reads accounts, not their credit limits.
    await api()
      .post(`/rest/entity/user/${owner.userKey}`)
      .send({ entity_name: 'user', properties: { is_admin: false } })
      .expect(200);
    const other = await createOrganization(t);
    const otherKey = await apiKeyFor(t, other.admin.key);
    const foreign = await account({ name: 'Foreign Ltd' }, otherKey);
    const key = await account({ name: 'Limited Ltd', credit_limit: 5000 });
    await waitFor(() => receiver.bodies('/ok/owner').length > 0, WAIT_MS);
    const [event] = receiver.bodies('/ok/owner');
    expect(event).toMatchObject({ key, changes: { name: { new: 'Limited Ltd' } }, withheld: true });
    expect(event.changes).not.toHaveProperty('credit_limit');
    await waitFor(() => deliveriesEnded(t.dataSource, hook.key, 'account', [foreign]), WAIT_MS);
    expect(receiver.bodies('/ok/owner').map((e) => e.key)).toEqual([key]);
    // The delivery is recorded after the receiver answered: waited for, not read at once.
    const [delivery] = await settled(hook.key);
    expect(delivery.eventId).toEqual(event.id);
    // A body the change log does not hold as sent is kept, as sent.
    const [stored] = await t.dataSource.query(
      'SELECT payload::text FROM webhook_delivery WHERE key = $1',
      [delivery.key],
    );
    expect(stored.payload).toBe(receiver.received.find((r) => r.path === '/ok/owner')!.body);
  });

  it('refuses bad input with a 400 naming it, and makes nothing', async () => {
    const count = async () =>
      (await t.dataSource.query('SELECT count(*)::int AS n FROM webhook'))[0].n as number;
    const before = await count();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ url: 'not a url' }, /url: "not a url" is not an absolute URL/],
      [{ url: 'ftp://127.0.0.1/x' }, /url: only http and https/],
      [{ events: 'nosuch.created' }, /events: "nosuch.created".*unknown/],
      [{ events: 'account.exploded' }, /events: "account.exploded": the operation is one of/],
      [{ events: 'invoice_line.created' }, /events: .*a child type/],
      [{ events: ' , ' }, /events: name at least one event/],
      [{ condition: 'nosuch = 1' }, /condition \(on account\): .*nosuch/],
      [{ condition: "name = 'x' ORDER BY name" }, /condition: only a condition is taken/],
      [{ condition: "name = 'x" }, /condition \(on account\)/],
      [{ name: undefined }, /name/],
      [{ secret: 'mine' }, /secret/],
    ];
    for (const [change, detail] of cases) {
      const body = {
        name: 'bad',
        url: `${receiver.url}/ok/bad`,
        events: 'account.created',
        ...change,
      };
      const { body: error } = await api().post('/rest/webhooks').send(body).expect(400);
      expect(error.detail).toMatch(detail);
    }
    const hook = await webhook('/ok/unchanged', 'account.created');
    const { body: error } = await api()
      .post(`/rest/entity/webhook/${hook.key}`)
      .send({ entity_name: 'webhook', properties: { url: 'http://169.254.169.254/latest' } })
      .expect(400);
    expect(error.detail).toMatch(
      /url: 169\.254\.169\.254 resolves to 169\.254\.169\.254, a linkLocal address/,
    );
    const { body: kept } = await api().get(`/rest/entity/webhook/${hook.key}`).expect(200);
    expect(kept.properties.url).toBe(`${receiver.url}/ok/unchanged`);
    // Made through the entity API, its secret would be shown to no one: refused there.
    const { body: elsewhere } = await api()
      .post('/rest/entity/webhook')
      .send({
        entity_name: 'webhook',
        properties: { name: 'entity', url: `${receiver.url}/ok/entity`, events: 'account.created' },
      })
      .expect(400);
    expect(elsewhere.detail).toBe(
      'webhook records are made with POST /rest/webhooks, not through the entity API',
    );
    expect(await count()).toBe(before + 1);
  });

  it('refuses private, loopback, link-local and metadata addresses when saved and when sent, without connecting', async () => {
    const resolver = t.app.get(HostResolver);
    const transport = t.app.get(WebhookTransport);
    const names: Record<string, string> = {
      'hooks.internal.test': '10.0.0.7',
      'metadata.test': 'fd00:ec2::254',
      localhost: '127.0.0.1',
      'rebind.test': '93.184.216.34',
    };
    const lookup = jest.spyOn(resolver, 'resolve').mockImplementation(async (host) => {
      const address = names[host];
      if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    });
    const post = transport.post.bind(transport);
    const sent = jest.spyOn(transport, 'post').mockImplementation(async (url, ...rest) =>
      // Only the loopback receiver is ever connected to from here.
      url.hostname === '127.0.0.1' ? post(url, ...rest) : { error: 'not connected in tests' },
    );
    try {
      const refused: [string, RegExp][] = [
        ['http://hooks.internal.test/x', /resolves to 10\.0\.0\.7, a private address/],
        ['http://metadata.test/x', /resolves to fd00:ec2::254, a uniqueLocal address/],
        ['http://169.254.169.254/latest/meta-data', /169\.254\.169\.254, a linkLocal address/],
        ['http://[::1]:8080/x', /::1, a loopback address/],
        ['http://[::ffff:127.0.0.1]/x', /a loopback address/],
        ['http://localhost:8080/x', /localhost resolves to 127\.0\.0\.1, a loopback address/],
        ['http://0.0.0.0/x', /unspecified/],
        ['http://nowhere.test/x', /nowhere\.test does not resolve \(ENOTFOUND\)/],
      ];
      for (const [url, detail] of refused) {
        const { body } = await api()
          .post('/rest/webhooks')
          .send({ name: 'ssrf', url, events: 'contact.created' })
          .expect(400);
        expect(body.detail).toMatch(detail);
      }

      // Public when saved, private when sent: refused at the delivery, never connected to.
      const hook = await api()
        .post('/rest/webhooks')
        .send({ name: 'rebind', url: 'http://rebind.test/x', events: 'contact.created' })
        .expect(201);
      names['rebind.test'] = '10.0.0.7';
      await api()
        .post('/rest/entity/contact')
        .send({ entity_name: 'contact', properties: { last_name: 'Rebound' } })
        .expect(200);
      let attempts: Delivery['attempts'] = [];
      await waitFor(async () => {
        attempts = (await deliveries(hook.body.key))[0]?.attempts ?? [];
        return attempts.length > 0;
      }, WAIT_MS);
      expect(attempts[0].error).toMatch(
        /^refused: rebind\.test resolves to 10\.0\.0\.7, a private address/,
      );
      expect(sent.mock.calls.filter(([url]) => url.hostname !== '127.0.0.1')).toEqual([]);
      await api().delete(`/rest/entity/webhook/${hook.body.key}`).expect(200);
    } finally {
      lookup.mockRestore();
      sent.mockRestore();
    }
  });

  it('lets administrators alone manage webhooks, and only their own organization’s', async () => {
    const hook = await webhook('/ok/managed', 'contact.created');
    const member = await apiKeyUser(t);
    await api(member.key)
      .post('/rest/webhooks')
      .send({ name: 'x', url: `${receiver.url}/ok/x`, events: 'account.created' })
      .expect(403);
    await api(member.key).get(`/rest/webhooks/${hook.key}/deliveries`).expect(403);
    await api(member.key).get(`/rest/entity/webhook/${hook.key}`).expect(404);
    const other = await createOrganization(t);
    const otherAdmin = await apiKeyFor(t, other.admin.key);
    await api(otherAdmin).get(`/rest/webhooks/${hook.key}/deliveries`).expect(404);
    await api(otherAdmin).post(`/rest/webhooks/${hook.key}/secret`).expect(404);
    await api(otherAdmin).get(`/rest/entity/webhook/${hook.key}`).expect(404);
  });

  it('keeps a delivery that ended: a later failure leaves it delivered or failed, and only a success ends a failed one', async () => {
    const hook = await webhook('/ok/ended', 'account.created');
    const repository = t.app.get(WebhookRepository);
    // As the deliveries' worker records them, for every organization.
    const worker = systemScope('webhook-delivery');
    const record = async (jobId: string, ...statuses: number[]) => {
      const delivery = {
        idWebhook: hook.key,
        jobId,
        eventId: `e-${jobId}`,
        eventType: 'account.created',
        payload: {},
        replayOf: null,
      };
      for (const status of statuses) {
        const state = status === 200 ? 'delivered' : status === 500 ? 'failed' : 'retrying';
        const attempt = { at: new Date().toISOString(), status, durationMs: 1 };
        await repository.recordAttempts(worker, [{ delivery, attempt, state }]);
      }
      const [recorded] = await repository.byJobs(worker, [jobId]);
      return { state: recorded.state, statuses: recorded.attempts.map((a) => a.status) };
    };
    // A success, then a late attempt that asked for a retry: still delivered.
    expect(await record(randomUUID(), 200, 503)).toEqual({
      state: 'delivered',
      statuses: [200, 503],
    });
    // Failed for good, then a late attempt that asked for a retry: still failed.
    expect(await record(randomUUID(), 500, 503)).toEqual({
      state: 'failed',
      statuses: [500, 503],
    });
    // Failed, then retried by hand from its dead letter and delivered.
    expect(await record(randomUUID(), 500, 200)).toEqual({
      state: 'delivered',
      statuses: [500, 200],
    });
  });
});
