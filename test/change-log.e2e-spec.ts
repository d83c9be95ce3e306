import { Module } from '@nestjs/common';
import request from 'supertest';
import { Workflow, WorkflowError, WorkflowMethod } from '../src/atrium';
import type { WorkflowContext } from '../src/workflow/workflow.service';
import { HTTP_PLATFORMS } from '../src/config/environment';
import { AccessFixture, as } from './helpers/access';
import {
  apiKeyUser,
  createSecondTestApp,
  createTestApp,
  postFetch,
  TestApp,
  uniqueName,
} from './helpers/test-app';

const LINES = 'invoice_invoice_line';

/** Writes an account, then fails: the write is rolled back, its entry with it. */
@Workflow('regrets')
class Regrets {
  @WorkflowMethod({ arguments: [{ name: 'name', type: 'string' }] })
  async createThenFail(name: string, { data }: WorkflowContext): Promise<never> {
    await data.create('account', { properties: { name } });
    throw new WorkflowError(409, 'changed its mind after writing');
  }
}

@Module({ providers: [Regrets] })
class RegretsModule {}
const line = (quantity: number, description = `q${quantity}`) => ({
  properties: { quantity, unit_price: '2.00', description },
});

interface Entry {
  key: number;
  occurredAt: string;
  operation: string;
  entity: string;
  recordKey: number;
  changes: Record<string, { old?: unknown; new?: unknown }>;
  withheld?: true;
  actor: { userKey: number; userName: string; via: string; requestId: string };
  transactionId: number;
  children: Entry[];
}

/**
 * The change log as a client sees it: one entry per record written, in the write's own
 * transaction, with the entries of its child rows under it; the history endpoint, the
 * record as it was, the audit through FETCH, the purge.
 */
describe.each(HTTP_PLATFORMS)('change log on %s', (platform) => {
  let t: TestApp;
  let fixture: AccessFixture;
  let member: { key: string; userKey: number; userName: string };
  let accountKey: number;

  const api = (key: string) => as(t, key);
  const history = async (entity: string, key: number, query = '', apiKey = member.key) =>
    (await api(apiKey).get(`/rest/entity/${entity}/${key}/history${query}`).expect(200))
      .body as Entry[];
  /** Rows of change_log a request left, found by the request id it answered with. */
  const entriesOfRequest = async (requestId: string) =>
    Number(
      (
        await t.dataSource.query('SELECT count(*) AS n FROM change_log WHERE request_id = $1', [
          requestId,
        ])
      )[0].n,
    );
  const createInvoice = async (lines = [line(1), line(2)]) =>
    (
      await api(member.key)
        .post('/rest/entity/invoice', {
          properties: { id_account: accountKey },
          children: { [LINES]: lines },
        })
        .expect(200)
    ).body.key as number;
  const memberRole = async () =>
    (await postFetch(t, fixture.admin, "FETCH role (key) WHERE name = 'member'").expect(200))
      .body[0] as { key: number };
  const read = async (entity: string, key: number, query = '') =>
    (await api(member.key).get(`/rest/entity/${entity}/${key}${query}`).expect(200)).body;

  beforeAll(async () => {
    t = await createTestApp({ HTTP_PLATFORM: platform }, [RegretsModule]);
    fixture = await AccessFixture.create(t);
    member = await apiKeyUser(t);
    accountKey = (
      await api(member.key)
        .post('/rest/entity/account', { properties: { name: uniqueName('Log SA') } })
        .expect(200)
    ).body.key;
  });
  afterAll(() => t.close());

  it('logs a create as one entry, its lines as entries under it, with who and how', async () => {
    const response = await api(member.key)
      .post('/rest/entity/invoice', {
        properties: { id_account: accountKey, currency: 'EUR' },
        children: { [LINES]: [line(1), line(2)] },
      })
      .expect(200);
    const [entry, ...older] = await history('invoice', response.body.key);
    expect(older).toEqual([]);
    expect(entry).toMatchObject({
      operation: 'created',
      entity: 'invoice',
      recordKey: response.body.key,
      actor: {
        userKey: member.userKey,
        userName: member.userName,
        via: expect.stringMatching(/^api-key \d+$/),
        requestId: response.headers['x-request-id'],
      },
    });
    expect(entry.changes).toMatchObject({
      id_account: { new: accountKey },
      currency: { new: 'EUR' },
      status: { new: 'draft' },
      total: { new: '6.00' },
    });
    expect(entry.changes).not.toHaveProperty('key');
    expect(entry.children.map((c) => [c.operation, c.entity, c.changes.quantity])).toEqual([
      ['created', 'invoice_line', { new: 1 }],
      ['created', 'invoice_line', { new: 2 }],
    ]);
    expect(entry.children.every((c) => c.transactionId === entry.transactionId)).toBe(true);
    expect(new Date(entry.occurredAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('logs only what an update changed, child rows added, changed and removed', async () => {
    const key = await createInvoice([line(1, 'first'), line(2, 'second')]);
    const [first, second] = (await read('invoice', key)).children[LINES];
    await api(member.key)
      .post(`/rest/entity/invoice/${key}`, {
        properties: { currency: 'USD' },
        children: {
          [LINES]: [{ properties: { key: first.properties.key, quantity: 3 } }, line(4, 'fourth')],
        },
      })
      .expect(200);
    const [updated] = await history('invoice', key);
    expect(updated.operation).toBe('updated');
    expect(updated.changes).toEqual({
      currency: { old: null, new: 'USD' },
      total: { old: '6.00', new: '14.00' },
    });
    const children = updated.children.map((c) => [c.operation, c.recordKey, c.changes]);
    expect(children).toEqual(
      expect.arrayContaining([
        [
          'updated',
          first.properties.key,
          { quantity: { old: 1, new: 3 }, amount: { old: '2.00', new: '6.00' } },
        ],
        ['deleted', second.properties.key, expect.objectContaining({ quantity: { old: 2 } })],
        ['created', expect.any(Number), expect.objectContaining({ quantity: { new: 4 } })],
      ]),
    );
    expect(children).toHaveLength(3);
  });

  it('keeps any text exactly, quotes, backslashes and SQL in it included', async () => {
    const name = `O'Brien \\ "quoted" \u00e9 ; COMMIT; DROP TABLE account; -- ${uniqueName('x')}`;
    const { body } = await api(member.key)
      .post('/rest/entity/account', { properties: { name } })
      .expect(200);
    const [created] = await history('account', body.key);
    expect(created.changes.name).toEqual({ new: name });
    const [{ n }] = await t.dataSource.query('SELECT count(*) AS n FROM account WHERE key = $1', [
      body.key,
    ]);
    expect(Number(n)).toBe(1);
  });

  it('writes no entry for an update that changes nothing', async () => {
    const key = await createInvoice();
    await api(member.key)
      .post(`/rest/entity/invoice/${key}`, { properties: { currency: null } })
      .expect(200);
    expect((await history('invoice', key)).map((e) => e.operation)).toEqual(['created']);
  });

  it('logs a child row changed alone under an entry of its record without changes', async () => {
    const key = await createInvoice([line(1)]);
    const [only] = (await read('invoice', key)).children[LINES];
    await api(member.key)
      .post(`/rest/entity/invoice/${key}`, {
        children: {
          [LINES]: [{ properties: { key: only.properties.key, description: 'renamed' } }],
        },
      })
      .expect(200);
    const [entry] = await history('invoice', key);
    expect(entry).toMatchObject({ operation: 'updated', changes: {} });
    expect(entry.children.map((c) => c.changes)).toEqual([
      { description: { old: 'q1', new: 'renamed' } },
    ]);
  });

  it('leaves no entry for a write that rolls back: a 424 from a hook, a unique violation', async () => {
    const refused = await api(member.key)
      .post('/rest/entity/invoice', {
        properties: { id_account: accountKey },
        children: { [LINES]: [line(1), line(0)] },
      })
      .expect(424);
    expect(await entriesOfRequest(refused.headers['x-request-id'])).toBe(0);

    const code = uniqueName('P');
    const product = { properties: { code, name: 'Twice', price: '1.00' } };
    const created = await api(fixture.admin).post('/rest/entity/product', product).expect(200);
    expect(await entriesOfRequest(created.headers['x-request-id'])).toBe(1);
    const twice = await api(fixture.admin).post('/rest/entity/product', product).expect(409);
    expect(await entriesOfRequest(twice.headers['x-request-id'])).toBe(0);
  });

  it('leaves no entry for a write made before its transaction failed', async () => {
    const name = uniqueName('Regretted');
    const failed = await api(member.key)
      .post('/rest/workflow/regrets/createThenFail', { name })
      .expect(409);
    const [{ n }] = await t.dataSource.query('SELECT count(*) AS n FROM account WHERE name = $1', [
      name,
    ]);
    expect(Number(n)).toBe(0);
    expect(await entriesOfRequest(failed.headers['x-request-id'])).toBe(0);
    // The same write that commits has its entry: the test above could not pass by accident.
    const kept = await api(member.key)
      .post('/rest/entity/account', { properties: { name } })
      .expect(200);
    expect(await entriesOfRequest(kept.headers['x-request-id'])).toBe(1);
  });

  it("keeps a deleted user's history, its roles' event after its deletion included", async () => {
    const { body: created } = await api(fixture.admin)
      .post('/rest/entity/user', {
        properties: {
          user_name: uniqueName('leaver'),
          full_name: 'Leaver',
          password: 'leaver-password-1',
        },
        children: { user_user_role: [{ properties: { id_role: (await memberRole()).key } }] },
      })
      .expect(200);
    await api(fixture.admin).delete(`/rest/entity/user/${created.key}`).expect(200);
    const entries = await history('user', created.key, '', fixture.admin);
    expect(entries.map((e) => e.operation)).toEqual([
      'roles_changed',
      'deleted',
      'roles_changed',
      'created',
    ]);
    await api(fixture.admin).post(`/rest/entity/user/${created.key}/history/purge`, {}).expect(200);
  });

  it("shows a user's sign-ins in its history to the audit's readers only", async () => {
    const reader = await apiKeyUser(t);
    const session = await request(t.http)
      .post('/auth')
      .send({ user: reader.userName, password: 'user-password-1' })
      .expect(200);
    expect(session.status).toBe(200);
    const ofAdmin = await history('user', reader.userKey, '', fixture.admin);
    expect(ofAdmin.map((e) => e.operation)).toContain('signed_in');
    const ofMember = await history('user', reader.userKey);
    expect(ofMember.map((e) => e.operation)).not.toContain('signed_in');
    expect(ofMember.map((e) => e.operation)).toContain('created');
  });

  it('logs writes a workflow makes through ScopedData, as the caller', async () => {
    const key = await createInvoice();
    await api(member.key).post('/rest/workflow/invoicing/issue', { invoiceKey: key }).expect(200);
    const [issued] = await history('invoice', key);
    expect(issued).toMatchObject({
      operation: 'updated',
      changes: { status: { old: 'draft', new: 'issued' } },
      actor: { userKey: member.userKey },
    });
  });

  it('keeps a deleted record’s history for who could read it, and 404 for who could not', async () => {
    const key = await createInvoice([line(5)]);
    await api(member.key).delete(`/rest/entity/invoice/${key}`).expect(200);
    const [deleted] = await history('invoice', key);
    expect(deleted).toMatchObject({
      operation: 'deleted',
      changes: { status: { old: 'draft' }, total: { old: '10.00' } },
    });
    expect(deleted.children).toEqual([
      expect.objectContaining({
        operation: 'deleted',
        changes: expect.objectContaining({ quantity: { old: 5 } }),
      }),
    ]);
    const userDepth = await fixture.role({ invoice: { read: 'user' } });
    const stranger = await fixture.user(fixture.units.sibling, [userDepth.name]);
    await api(stranger.apiKey).get(`/rest/entity/invoice/${key}/history`).expect(404);
    await api(member.key).get('/rest/entity/invoice/999999999/history').expect(404);
  });

  it('leaves secured values out for callers who may not read them, and says so', async () => {
    const { body } = await api(fixture.admin)
      .post('/rest/entity/account', {
        properties: { name: uniqueName('Secured SA'), credit_limit: '100.00' },
      })
      .expect(200);
    await api(fixture.admin)
      .post(`/rest/entity/account/${body.key}`, {
        properties: { credit_limit: '250.00', name: 'Renamed SA' },
      })
      .expect(200);
    const [adminView] = await history('account', body.key, '', fixture.admin);
    expect(adminView.changes.credit_limit).toEqual({ old: '100.00', new: '250.00' });
    expect(adminView).not.toHaveProperty('withheld');

    const accounts = await fixture.role({ account: { read: 'organization' } });
    const reader = await fixture.user(fixture.units.main, [accounts.name]);
    const [readerView] = await history('account', body.key, '', reader.apiKey);
    expect(readerView.changes).toEqual({ name: { old: expect.any(String), new: 'Renamed SA' } });
    expect(readerView.withheld).toBe(true);
    const asOf = await api(reader.apiKey)
      .get(`/rest/entity/account/${body.key}?asOf=${new Date().toISOString()}`)
      .expect(200);
    expect(asOf.body.properties).toMatchObject({ name: 'Renamed SA' });
    expect(asOf.body.properties).not.toHaveProperty('credit_limit');
  });

  it('rebuilds the record as it was, child rows added and removed included', async () => {
    const key = await createInvoice([line(1, 'a'), line(2, 'b')]);
    const [a] = (await read('invoice', key)).children[LINES];
    const afterCreate = (await history('invoice', key))[0].occurredAt;
    await api(member.key)
      .post(`/rest/entity/invoice/${key}`, {
        properties: { currency: 'RON' },
        children: {
          [LINES]: [
            { properties: { key: (await read('invoice', key)).children[LINES][1].properties.key } },
            line(3, 'c'),
          ],
        },
      })
      .expect(200);
    const now = await read('invoice', key);

    const then = await read('invoice', key, `?asOf=${afterCreate}`);
    expect(then.properties).toMatchObject({ key, currency: null, total: '6.00' });
    expect(
      then.children[LINES].map(
        (l: { properties: { description: string } }) => l.properties.description,
      ),
    ).toEqual(['a', 'b']);
    expect(then.children[LINES][0].properties.key).toBe(a.properties.key);

    const later = await read('invoice', key, `?asOf=${new Date().toISOString()}`);
    const shape = (record: {
      properties: object;
      children: Record<string, { properties: object }[]>;
    }) => ({
      ...record,
      properties: { ...record.properties, date_updated: 'any' },
      children: {
        [LINES]: record.children[LINES].map((l) => ({
          ...l,
          properties: { ...l.properties, date_updated: 'any' },
        })),
      },
    });
    expect(shape(later)).toEqual(shape(now));

    const before = new Date(new Date(afterCreate).getTime() - 60_000).toISOString();
    await api(member.key).get(`/rest/entity/invoice/${key}?asOf=${before}`).expect(404);
  });

  it('answers a malformed instant with 400', async () => {
    const key = await createInvoice();
    for (const bad of ['yesterday', '2026-02-30', '2026-11-26T10:00:00']) {
      const { body } = await api(member.key)
        .get(`/rest/entity/invoice/${key}?asOf=${encodeURIComponent(bad)}`)
        .expect(400);
      expect(body.detail).toMatch(/^asOf: .* is not an ISO 8601 instant/);
    }
  });

  it('pages newest first with a cursor, and filters by operation and time', async () => {
    const key = await createInvoice();
    for (const currency of ['AAA', 'BBB', 'CCC']) {
      await api(member.key)
        .post(`/rest/entity/invoice/${key}`, { properties: { currency } })
        .expect(200);
    }
    const first = await api(member.key)
      .get(`/rest/entity/invoice/${key}/history?limit=2`)
      .expect(200);
    expect(first.body.map((e: Entry) => e.changes.currency?.new)).toEqual(['CCC', 'BBB']);
    const cursor = first.headers['x-fetch-next'];
    expect(cursor).toEqual(expect.any(String));
    const second = await api(member.key)
      .get(`/rest/entity/invoice/${key}/history?limit=2`)
      .set('X-Fetch-Cursor', cursor)
      .expect(200);
    expect(second.body.map((e: Entry) => e.operation)).toEqual(['updated', 'created']);
    expect(second.headers['x-fetch-next']).toBeUndefined();

    expect((await history('invoice', key, '?operation=created')).map((e) => e.operation)).toEqual([
      'created',
    ]);
    const all = await history('invoice', key);
    const from = all[1].occurredAt;
    expect((await history('invoice', key, `?from=${from}`)).map((e) => e.key)).toEqual(
      all.filter((e) => e.occurredAt >= from).map((e) => e.key),
    );
    expect(await history('invoice', key, '?to=2000-01-01')).toEqual([]);

    for (const [query, detail] of [
      ['?operation=changed', /^operation: "changed" is none of/],
      ['?limit=0', /^limit:/],
      ['?from=soon', /^from: "soon" is not an ISO 8601 instant/],
    ] as const) {
      const { body } = await api(member.key)
        .get(`/rest/entity/invoice/${key}/history${query}`)
        .expect(400);
      expect(body.detail).toMatch(detail);
    }
    const { body } = await api(member.key)
      .get(`/rest/entity/invoice/${key}/history`)
      .set('X-Fetch-Cursor', 'forged')
      .expect(400);
    expect(body.detail).toMatch(/^X-Fetch-Cursor/);
  });

  it('is an entity type FETCH queries, read-only through every API', async () => {
    const key = await createInvoice();
    const query = `FETCH change_log (operation, entity, COUNT(*) AS n)
      WHERE root_entity = 'invoice' AND root_key = ${key} GROUP BY operation, entity ORDER BY entity`;
    const { body } = await postFetch(t, fixture.admin, query).expect(200);
    expect(body).toEqual([
      { operation: 'created', entity: 'invoice', n: 1 },
      { operation: 'created', entity: 'invoice_line', n: 2 },
    ]);
    const byDay = await postFetch(
      t,
      fixture.admin,
      `FETCH change_log (DAY(date_created) AS day, COUNT(*) AS n) WHERE root_key = ${key} GROUP BY day`,
    ).expect(200);
    expect(byDay.body).toEqual([{ day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), n: 3 }]);

    // Role member's `*` row grants organization depth on every type, but not on this one.
    const seen = await postFetch(t, member.key, `FETCH change_log (key) WHERE root_key = ${key}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual([]);
    const [entryKey] = (
      await postFetch(
        t,
        fixture.admin,
        `FETCH change_log (key) WHERE root_key = ${key} LIMIT 1`,
      ).expect(200)
    ).body.map((r: { key: number }) => r.key);
    await api(fixture.admin)
      .post('/rest/entity/change_log', { properties: { operation: 'created' } })
      .expect(403);
    await api(fixture.admin)
      .post(`/rest/entity/change_log/${entryKey}`, { properties: { operation: 'x' } })
      .expect(403);
    await api(fixture.admin).delete(`/rest/entity/change_log/${entryKey}`).expect(403);
    await api(fixture.admin)
      .post(`/rest/entity/change_log/${entryKey}/owner`, { userKey: member.userKey })
      .expect(403);
  });

  it('lets a role granted read on it audit its depth, values only with the secured grant', async () => {
    const key = await createInvoice();
    const auditor = await fixture.role({ change_log: { read: 'organization' } });
    const reader = await fixture.user(fixture.units.main, [auditor.name]);
    const rows = await postFetch(
      t,
      reader.apiKey,
      `FETCH change_log (operation) WHERE root_key = ${key} AND entity = 'invoice'`,
    ).expect(200);
    expect(rows.body).toEqual([{ operation: 'created' }]);
    await postFetch(t, reader.apiKey, `FETCH change_log (changes) WHERE root_key = ${key}`).expect(
      403,
    );
  });

  it('purges a record’s history for an administrator, leaving one entry that says so', async () => {
    const key = await createInvoice();
    await api(member.key)
      .post(`/rest/entity/invoice/${key}`, { properties: { currency: 'GBP' } })
      .expect(200);
    await api(member.key).post(`/rest/entity/invoice/${key}/history/purge`, {}).expect(403);
    const { body } = await api(fixture.admin)
      .post(`/rest/entity/invoice/${key}/history/purge`, {})
      .expect(200);
    expect(body).toEqual({ purged: 4 });
    const entries = await history('invoice', key);
    expect(entries).toEqual([
      expect.objectContaining({ operation: 'purged', changes: {}, children: [] }),
    ]);
    expect(entries[0].actor.userName).toBe('admin');
  });
  it.each([
    ['without If-Match', false],
    ['with If-Match', true],
  ])(
    'chains old to new exactly when ten clients update one record at once (%s)',
    async (_, ifMatch) => {
      const key = (
        await api(member.key)
          .post('/rest/entity/account', { properties: { name: uniqueName('Race SA') } })
          .expect(200)
      ).body.key as number;
      const { headers } = await api(member.key).get(`/rest/entity/account/${key}`).expect(200);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => {
          const update = request(t.http)
            .post(`/rest/entity/account/${key}`)
            .set('X-API-Key', member.key)
            .send({ properties: { name: `writer ${i}` } });
          return ifMatch ? update.set('If-Match', headers.etag) : update;
        }),
      );
      const written = answers.filter((a) => a.status === 200).length;
      expect(answers.every((a) => a.status === 200 || (ifMatch && a.status === 412))).toBe(true);
      if (ifMatch) expect(written).toBe(1);
      const entries = (await history('account', key, '?limit=500')).reverse();
      expect(entries.map((e) => e.operation)).toEqual([
        'created',
        ...Array(written).fill('updated'),
      ]);
      for (let i = 1; i < entries.length; i++) {
        const before = entries[i - 1].changes.name.new;
        expect(entries[i].changes.name.old).toBe(before);
      }
      const { body } = await api(member.key).get(`/rest/entity/account/${key}`).expect(200);
      expect(entries[entries.length - 1].changes.name.new).toBe(body.properties.name);
    },
  );
});

/**
 * Retention drops whole monthly partitions: a partition of a month long past, with an
 * entry in it, is gone after a start with AUDIT_RETENTION_MONTHS, and this month's stay.
 */
describe('change log retention', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const partitions = async (): Promise<string[]> =>
    (
      await t.dataSource.query(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'change_log'::regclass ORDER BY 1`,
      )
    ).map((row: { name: string }) => row.name);

  it("makes this month's and next month's partitions, where new entries go", async () => {
    const now = new Date();
    const month = (offset: number) => {
      const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
      return `change_log_${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
    };
    expect(await partitions()).toEqual(expect.arrayContaining([month(0), month(1)]));
    const { key } = await apiKeyUser(t);
    const created = await request(t.http)
      .post('/rest/entity/account')
      .set('X-API-Key', key)
      .send({ properties: { name: uniqueName('Partitioned SA') } })
      .expect(200);
    const [row] = await t.dataSource.query(
      `SELECT tableoid::regclass::text AS partition FROM change_log WHERE request_id = $1`,
      [created.headers['x-request-id']],
    );
    expect(row.partition).toBe(month(0));
  });

  it('drops the partitions of months past AUDIT_RETENTION_MONTHS at start, whole', async () => {
    await t.dataSource.query(
      `CREATE TABLE IF NOT EXISTS change_log_2001_01 PARTITION OF change_log
         FOR VALUES FROM ('2001-01-01T00:00:00Z') TO ('2001-02-01T00:00:00Z')`,
    );
    await t.dataSource.query(
      `INSERT INTO change_log (key, date_created, operation, entity, root_entity, via, transaction_id)
       VALUES (nextval('change_log_key_seq'), '2001-01-15T00:00:00Z', 'created', 'account', 'account', 'system', 1)`,
    );
    const recent =
      Number((await t.dataSource.query('SELECT count(*) AS n FROM change_log'))[0].n) - 1;
    expect(await partitions()).toContain('change_log_2001_01');

    const kept = await createSecondTestApp({ AUDIT_RETENTION_MONTHS: '12' });
    try {
      expect(await partitions()).not.toContain('change_log_2001_01');
      const [{ n }] = await t.dataSource.query('SELECT count(*) AS n FROM change_log');
      expect(Number(n)).toBeGreaterThanOrEqual(recent);
      const [{ old }] = await t.dataSource.query(
        `SELECT count(*) AS old FROM change_log WHERE date_created < '2002-01-01'`,
      );
      expect(Number(old)).toBe(0);
    } finally {
      await kept.close();
    }
  });
});
