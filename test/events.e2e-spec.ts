import { Injectable, Module } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import type { EntityEvent } from '../src/events/entity-event';
import { Job, OnEntityEvent } from '../src/events/event.decorators';
import { JobQueue } from '../src/queue/job-queue.service';
import type { HandlerContext } from '../src/events/event-handlers.service';
import { Workflow, WorkflowMethod } from '../src/workflow/workflow.decorators';
import { WorkflowError } from '../src/workflow/workflow.errors';
import { WorkflowContext } from '../src/workflow/workflow.service';
import { FailedJob, findFailedJob } from './helpers/failed-jobs';
import { waitFor } from './helpers/postmaster';
import { apiKeyUser, createTestApp, seedAdmin, TestApp } from './helpers/test-app';

/** What the handlers below were given, in the order they ran. */
const seen: { event: EntityEvent; attempt: number; actor?: string }[] = [];
const jobsRun: { payload: unknown; attempt: number; actor?: string; jobId: string }[] = [];
/** Account names whose first event attempt fails (the second succeeds). */
const failOnce = new Set<string>();
/** Job payload texts that fail every attempt. */
const alwaysFail = new Set<string>();

/** The account name an event's changes carry, new or old. */
function nameIn(changes: EntityEvent['changes']): string {
  const name = changes.name as { new?: string; old?: string } | undefined;
  return name?.new ?? name?.old ?? '';
}

@Injectable()
class AccountWatcher {
  @OnEntityEvent('account', ['created', 'updated', 'deleted'])
  async changed(event: EntityEvent, context: HandlerContext): Promise<void> {
    const name = nameIn(event.changes);
    if (failOnce.has(name) && context.attempt === 1) throw new Error(`${name} fails once`);
    seen.push({ event, attempt: context.attempt, actor: context.actor?.userName });
  }

  @OnEntityEvent('invoice', ['created'])
  async invoiced(event: EntityEvent, context: HandlerContext): Promise<void> {
    seen.push({ event, attempt: context.attempt, actor: context.actor?.userName });
  }
}

@Injectable()
class Mailer {
  @Job('test-mail', { retryLimit: 1, retryDelay: 1 })
  async send(payload: { text: string }, context: HandlerContext): Promise<void> {
    if (alwaysFail.has(payload.text)) throw new Error(`cannot send ${payload.text}`);
    if (payload.text.startsWith('write ')) {
      await context.transaction((data) =>
        data.create('account', {
          entity_name: 'account',
          properties: { name: payload.text.slice('write '.length) },
        }),
      );
    }
    jobsRun.push({
      payload,
      attempt: context.attempt,
      actor: context.actor?.userName,
      jobId: context.jobId,
    });
  }
}

@Workflow('mailing')
class MailingWorkflow {
  @WorkflowMethod({ arguments: [{ name: 'text', type: 'string' }] })
  async send(text: string, { data }: WorkflowContext) {
    const id = await data.sendJob('test-mail', { text });
    if (text.startsWith('fail')) throw new WorkflowError(409, `${text}: refused after sending`);
    return { id };
  }
}

/** The longest a test waits for a delivery: retries come due after a second or two. */
const WAIT_MS = 20_000;

@Module({ providers: [AccountWatcher, Mailer, MailingWorkflow] })
class EventsTestModule {}

describe('after-commit events and jobs', () => {
  let t: TestApp;
  let key: string;
  let userName: string;
  let adminKey: string;

  beforeAll(async () => {
    t = await createTestApp({ EVENTS_POLL_MS: '200' }, [EventsTestModule]);
    ({ key, userName } = await apiKeyUser(t));
    ({ key: adminKey } = await seedAdmin(t));
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown, apiKey = key) =>
    request(t.http)
      .post(path)
      .set('X-API-Key', apiKey)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
  const createAccount = async (name: string) =>
    (
      await post('/rest/entity/account', { entity_name: 'account', properties: { name } }).expect(
        200,
      )
    ).body.key as number;
  const eventsOf = (entity: string, recordKey: number) =>
    seen.filter(({ event }) => event.entity === entity && event.key === recordKey);

  it('tells a subscriber of a committed create, as the change log has it', async () => {
    const accountKey = await createAccount('Evented');
    await waitFor(() => eventsOf('account', accountKey).length > 0, WAIT_MS);
    const [{ event, attempt, actor }] = eventsOf('account', accountKey);
    const [entry] = await t.dataSource.query(
      `SELECT key, date_created FROM change_log WHERE entity = 'account' AND record_key = $1`,
      [accountKey],
    );
    expect(event).toMatchObject({
      id: String(entry.key),
      type: 'account.created',
      entity: 'account',
      key: accountKey,
      operation: 'created',
      occurredAt: new Date(entry.date_created).toISOString(),
      actor: { name: userName, via: expect.stringMatching(/^api-key \d+$/) },
      changes: { name: { new: 'Evented' } },
      children: [],
    });
    expect(attempt).toBe(1);
    // The subscriber acts as the user who made the change.
    expect(actor).toBe(userName);
  });

  it("holds a record's child rows in its event", async () => {
    const [{ key: accountKey }] = await t.dataSource.query(`SELECT key FROM account LIMIT 1`);
    const [{ key: productKey }] = await t.dataSource.query(`SELECT key FROM product LIMIT 1`);
    const { body } = await post(
      '/rest/entity/invoice',
      {
        entity_name: 'invoice',
        properties: { id_account: accountKey, currency: 'EUR' },
        children: {
          invoice_invoice_line: [
            { properties: { id_product: productKey, quantity: 2, unit_price: '1.50' } },
          ],
        },
      },
      adminKey,
    ).expect(200);
    await waitFor(() => eventsOf('invoice', body.key).length > 0, WAIT_MS);
    const [{ event }] = eventsOf('invoice', body.key);
    expect(event.type).toBe('invoice.created');
    expect(event.children).toEqual([
      expect.objectContaining({
        entity: 'invoice_line',
        operation: 'created',
        changes: expect.objectContaining({ quantity: { new: 2 }, unit_price: { new: '1.50' } }),
      }),
    ]);
  });

  it('sends nothing for a write that rolled back', async () => {
    // A hook's 424 (a line of quantity 0), then a write that commits.
    const [{ key: accountKey }] = await t.dataSource.query(`SELECT key FROM account LIMIT 1`);
    await post(
      '/rest/entity/invoice',
      {
        entity_name: 'invoice',
        properties: { id_account: accountKey, currency: 'XTS' },
        children: { invoice_invoice_line: [{ properties: { quantity: 0, unit_price: '1.00' } }] },
      },
      adminKey,
    ).expect(424);
    const later = await createAccount('After the rollback');
    await waitFor(() => eventsOf('account', later).length > 0, WAIT_MS);
    const currencies = seen.map(({ event }) => (event.changes.currency as { new?: string })?.new);
    expect(currencies).not.toContain('XTS');
    const jobs = await t.dataSource.query(
      `SELECT 1 FROM pgboss.job WHERE data->'payload'->'changes'->'currency'->>'new' = 'XTS'`,
    );
    expect(jobs).toHaveLength(0);
  });

  it("gives a subscriber one record's events in the order they were written", async () => {
    const accountKey = await createAccount('Ordered 0');
    // Ten writers at once on one record, no If-Match: the row lock orders them.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(`/rest/entity/account/${accountKey}`, {
          entity_name: 'account',
          properties: { email: `ordered${i}@example.com` },
        }).expect(200),
      ),
    );
    await waitFor(() => eventsOf('account', accountKey).length === 11, WAIT_MS);
    const events = eventsOf('account', accountKey).map(({ event }) => event);
    expect(events.map((e) => Number(e.id))).toEqual(
      [...events.map((e) => Number(e.id))].sort((a, b) => a - b),
    );
    // Each update's old e-mail is the one the update before it wrote.
    const emails = events.slice(1).map((e) => e.changes.email as { old: unknown; new: unknown });
    for (let i = 1; i < emails.length; i++) expect(emails[i].old).toBe(emails[i - 1].new);
  });

  it('holds an entry back behind an earlier one of its record that commits later', async () => {
    // Entries of record `account 990001` written by hand, as the engine writes them, by
    // transactions that take their ids in one order and commit in another: A (older id)
    // writes the later entry; B (newer id) the earlier one; X, open between them, keeps the
    // horizon below B, so A's entry is readable and B's not yet.
    const connect = async () => {
      const client = new Client({ connectionString: process.env.ATRIUM_TEST_DATABASE_URL });
      await client.connect();
      await client.query('BEGIN');
      await client.query('SELECT pg_current_xact_id()');
      return client;
    };
    const log = (client: Client, name: string) =>
      client.query(
        `INSERT INTO change_log (key, date_created, operation, entity, record_key, root_entity,
           root_key, changes, via, transaction_id)
         VALUES (nextval('change_log_key_seq'), statement_timestamp(), 'updated', 'account', 990001,
           'account', 990001, jsonb_build_object('name', jsonb_build_object('new', $1::text)),
           'test', pg_current_xact_id()::text::int8)
         RETURNING key`,
        [name],
      );
    const [a, x, b] = [await connect(), await connect(), await connect()];
    try {
      const earlier = String((await log(b, 'first')).rows[0].key);
      await b.query('COMMIT');
      const later = String((await log(a, 'second')).rows[0].key);
      await a.query('COMMIT');
      await waitFor(async () => {
        const [{ pending }] = await t.dataSource.query(`SELECT pending FROM event_dispatch`);
        return (pending as unknown[]).map(String).includes(later);
      }, WAIT_MS);
      expect(eventsOf('account', 990001)).toEqual([]);
      await x.query('COMMIT');
      await waitFor(() => eventsOf('account', 990001).length === 2, WAIT_MS);
      expect(eventsOf('account', 990001).map(({ event }) => event.id)).toEqual([earlier, later]);
    } finally {
      for (const client of [a, x, b]) await client.end();
    }
  });

  /** A connection to `database` on the suite's server, in a transaction held open. */
  async function heldOpen(database: string | undefined, work: string): Promise<Client> {
    const url = new URL(process.env.ATRIUM_TEST_DATABASE_URL!);
    if (database) url.pathname = `/${database}`;
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    await client.query('BEGIN');
    await client.query(work);
    return client;
  }

  it('holds no event back for a transaction open in another database of the server, that wrote there', async () => {
    const other = await heldOpen('postgres', 'CREATE TEMPORARY TABLE held_open (n int)');
    try {
      const accountKey = await createAccount('Beside a long transaction');
      await waitFor(() => eventsOf('account', accountKey).length > 0, 1_000);
    } finally {
      await other.end();
    }
  });

  it('holds no event back for a session of this database that has written nothing', async () => {
    const idle = await heldOpen(undefined, 'SELECT count(*) FROM account');
    try {
      const accountKey = await createAccount('Beside an idle session');
      await waitFor(() => eventsOf('account', accountKey).length > 0, 1_000);
    } finally {
      await idle.end();
    }
  });

  it('tries a failed subscriber again, with the same event', async () => {
    failOnce.add('Flaky');
    const accountKey = await createAccount('Flaky');
    await waitFor(() => eventsOf('account', accountKey).length > 0, WAIT_MS);
    const [{ event, attempt }] = eventsOf('account', accountKey);
    expect(attempt).toBe(2);
    expect(event.type).toBe('account.created');
  });

  it('runs a job sent in a committed transaction, as its sender, once', async () => {
    const { body } = await post('/rest/workflow/mailing/send', { text: 'write Job-made' }).expect(
      200,
    );
    const runOf = () => jobsRun.find((j) => j.jobId === body.id);
    await waitFor(() => runOf() !== undefined, WAIT_MS);
    const run = runOf();
    expect(run).toMatchObject({ payload: { text: 'write Job-made' }, attempt: 1, actor: userName });
    // What it wrote as the sender is logged as the job's doing.
    const rows = await t.dataSource.query(
      `SELECT actor_name, via FROM change_log WHERE changes->'name'->>'new' = 'Job-made'`,
    );
    expect(rows).toEqual([{ actor_name: userName, via: 'job test-mail' }]);
    expect(jobsRun.filter((j) => j.jobId === body.id)).toHaveLength(1);
  });

  it('sends a job whose data holds text jsonb refuses, with U+FFFD in its place', async () => {
    // Text a handler made (a client's is refused at the edge): a NUL, a lone surrogate.
    const id = await t.app.get(JobQueue).send('test-mail', {
      organization: null,
      actor: null,
      payload: { text: 'made\u0000by\ud800code' },
    });
    await waitFor(() => jobsRun.some((j) => j.jobId === id), WAIT_MS);
    expect(jobsRun.find((j) => j.jobId === id)!.payload).toEqual({
      text: 'made\ufffdby\ufffdcode',
    });
  });

  it('sends no job for a transaction that rolled back', async () => {
    await post('/rest/workflow/mailing/send', { text: 'fail quietly' }).expect(409);
    const jobs = await t.dataSource.query(
      `SELECT 1 FROM pgboss.job WHERE name = 'test-mail' AND data->'payload'->>'text' = 'fail quietly'`,
    );
    expect(jobs).toHaveLength(0);
  });

  it("shows an organization's failed jobs to its administrators, who may retry them", async () => {
    alwaysFail.add('doomed');
    const { body } = await post('/rest/workflow/mailing/send', { text: 'doomed' }).expect(200);
    const failedJob = await deadLetterOf(body.id);
    // The error's message, never its stack.
    expect(Object.keys(failedJob).sort()).toEqual([
      'attempts',
      'createdOn',
      'error',
      'failedAt',
      'id',
      'jobId',
      'queue',
    ]);
    expect(failedJob).toMatchObject({
      queue: 'test-mail',
      attempts: 2,
      error: 'cannot send doomed',
    });
    await request(t.http).get('/rest/jobs/failed').set('X-API-Key', key).expect(403);
    alwaysFail.delete('doomed');
    await request(t.http)
      .post(`/rest/jobs/failed/${failedJob.id}/retry`)
      .set('X-API-Key', adminKey)
      .expect(204);
    // Tried again where it failed, and no longer a dead letter.
    await waitFor(() => jobsRun.some((j) => j.jobId === body.id), WAIT_MS);
    expect(await findFailedJob(asAdmin, body.id)).toBeUndefined();
    await request(t.http)
      .post(`/rest/jobs/failed/${failedJob.id}/retry`)
      .set('X-API-Key', adminKey)
      .expect(404);
  });

  it('pages failed jobs oldest first, each page after the last one of the one before', async () => {
    alwaysFail.add('paged');
    const first = await deadLetterOf(
      (await post('/rest/workflow/mailing/send', { text: 'paged' }).expect(200)).body.id,
    );
    const second = await deadLetterOf(
      (await post('/rest/workflow/mailing/send', { text: 'paged' }).expect(200)).body.id,
    );
    alwaysFail.delete('paged');
    const { body: one } = await asAdmin(`/rest/jobs/failed?limit=1&after=${first.id}`).expect(200);
    expect(one).toHaveLength(1);
    const { body: next } = await asAdmin(`/rest/jobs/failed?limit=200&after=${first.id}`).expect(
      200,
    );
    const ids = (next as FailedJob[]).map((job) => job.id);
    expect(ids).toContain(second.id);
    expect(ids).not.toContain(first.id);
    expect(ids[0]).toBe(one[0].id);

    const unknown = '00000000-0000-4000-8000-000000000000';
    const { body: refused } = await asAdmin(`/rest/jobs/failed?after=${unknown}`).expect(400);
    expect(refused).toEqual({ detail: `after: no failed job ${unknown} of your organization` });
    const { body: malformed } = await asAdmin('/rest/jobs/failed?after=last').expect(400);
    expect(malformed).toEqual({ detail: "after must be a failed job's id (a uuid)" });
  });

  const asAdmin = (path: string) => request(t.http).get(path).set('X-API-Key', adminKey);

  /** The dead letter of the job `jobId`, once it failed for good. */
  async function deadLetterOf(jobId: string): Promise<FailedJob> {
    let dead: FailedJob | undefined;
    await waitFor(async () => {
      dead = await findFailedJob(asAdmin, jobId);
      return dead !== undefined;
    }, WAIT_MS);
    return dead!;
  }
});
