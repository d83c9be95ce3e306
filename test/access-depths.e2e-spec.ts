import request from 'supertest';
import {
  AccessFixture,
  as,
  Depth,
  DEPTHS,
  Owner,
  OWNERS,
  Privilege,
  REACH,
} from './helpers/access';
import { apiKeyFor, createTestApp, postFetch, TestApp, uniqueName } from './helpers/test-app';

/**
 * The depth matrix: for account, invoice and file, a caller holding each depth for each
 * action, against records of owners at every place in the unit tree (helpers/access.ts),
 * through every way in: GET, update, DELETE, POST, assign, FETCH (rows, count, aggregate,
 * links), the invoicing workflow and storage.
 */
const ENTITIES = ['account', 'invoice', 'file'] as const;
type Entity = (typeof ENTITIES)[number];

describe('access depths', () => {
  let t: TestApp;
  let f: AccessFixture;
  let self: string;
  let adminAccount: number;

  const admin = () => as(t, f.admin);
  const caller = () => as(t, self);
  const expected = (depth: Depth, owner: Owner, inReach: number, beyond: number) =>
    REACH[depth].includes(owner) ? inReach : beyond;

  /** A new upload, as the caller; a new version of `fileKey` when given. */
  const upload = (apiKey: string, fileKey?: number) => {
    const r = request(t.http).post('/storage').set('X-API-Key', apiKey);
    if (fileKey !== undefined) r.field('id', String(fileKey));
    return r.attach('file', Buffer.from(uniqueName('bytes')), 'a.txt');
  };

  /** A record of `entity` per owner, made by the administrator and given to that owner. */
  async function recordsOfEveryOwner(entity: Entity): Promise<Record<Owner, number>> {
    const keys = {} as Record<Owner, number>;
    for (const owner of OWNERS) {
      if (entity === 'file') {
        keys[owner] = (await upload(f.admin).expect(201)).body.id;
        // Files are written through /storage only; their owner columns are moved here.
        await t.dataSource.query(
          `UPDATE file SET id_user = u.key, id_business_unit = u.id_business_unit
             FROM "user" u WHERE u.key = $2 AND file.key = $1`,
          [keys[owner], f.owners[owner]],
        );
        continue;
      }
      const body =
        entity === 'account'
          ? { properties: { name: uniqueName(owner) } }
          : {
              properties: { id_account: adminAccount },
              children: {
                invoice_invoice_line: [{ properties: { quantity: 1, unit_price: '2.00' } }],
              },
            };
      keys[owner] = (await admin().post(`/rest/entity/${entity}`, body).expect(200)).body.key;
      await f.give(entity, keys[owner], owner);
    }
    return keys;
  }

  const read = (entity: Entity, key: number) =>
    entity === 'file'
      ? request(t.http).get(`/storage?id=${key}`).set('X-API-Key', self)
      : caller().get(`/rest/entity/${entity}/${key}`);
  const change = (entity: Entity, key: number) =>
    entity === 'file'
      ? upload(self, key)
      : caller().post(`/rest/entity/${entity}/${key}`, {
          properties: entity === 'account' ? { name: uniqueName('changed') } : { currency: 'EUR' },
        });
  const create = (entity: Entity) =>
    entity === 'file'
      ? upload(self)
      : caller().post(
          `/rest/entity/${entity}`,
          entity === 'account'
            ? { properties: { name: 'new' } }
            : { properties: { id_account: adminAccount } },
        );
  const giveToSelf = (entity: Entity, key: number) =>
    caller().post(`/rest/entity/${entity}/${key}/owner`, { userKey: f.owners.self });

  beforeAll(async () => {
    t = await createTestApp();
    f = await AccessFixture.create(t);
    // The caller is the fixture's owner `self`: the records `self` owns are its own.
    self = await apiKeyFor(t, f.owners.self);
    adminAccount = (
      await admin()
        .post('/rest/entity/account', { properties: { name: 'invoiced' } })
        .expect(200)
    ).body.key;
  });
  afterAll(() => t.close());

  describe.each(ENTITIES)('%s', (entity) => {
    describe.each(DEPTHS)('read at depth %s', (depth) => {
      let records: Record<Owner, number>;
      const keys = () => OWNERS.map((o) => records[o]).join(', ');
      const reached = () => REACH[depth].map((o) => records[o]).sort((a, b) => a - b);

      beforeAll(async () => {
        const privileges: Record<string, Privilege> = { [entity]: { read: depth } };
        if (entity === 'account') privileges.contact = { read: 'organization' };
        if (entity === 'invoice') privileges.account = { read: 'organization' };
        await f.holds(f.owners.self, [(await f.role(privileges)).key]);
        records = await recordsOfEveryOwner(entity);
      });

      it('reads what the depth reaches; the rest is 404', async () => {
        for (const owner of OWNERS) {
          await read(entity, records[owner]).expect(expected(depth, owner, 200, 404));
        }
      });

      it('FETCH rows, X-Total-Count and an aggregate count only what it reaches', async () => {
        const rows = await postFetch(t, self, `FETCH ${entity} (key) WHERE key IN (${keys()})`)
          .set('X-Fetch-Count', 'true')
          .expect(200);
        const got = rows.body
          .map((r: { key: number }) => r.key)
          .sort((a: number, b: number) => a - b);
        expect(got).toEqual(reached());
        expect(rows.headers['x-total-count']).toBe(String(reached().length));
        const counted = await postFetch(
          t,
          self,
          `FETCH ${entity} (COUNT(*) AS n) WHERE key IN (${keys()})`,
        ).expect(200);
        expect(Number(counted.body[0].n)).toBe(reached().length);
      });

      it('refuses changes: 403 where it reads, 404 where it does not', async () => {
        for (const owner of OWNERS) {
          const status = expected(depth, owner, 403, 404);
          await change(entity, records[owner]).expect(status);
          await giveToSelf(entity, records[owner]).expect(status);
          if (entity !== 'file') {
            await caller().delete(`/rest/entity/${entity}/${records[owner]}`).expect(status);
          }
        }
        await create(entity).expect(403);
      });

      if (entity === 'account') {
        it('limits links: an inner link drops, an outer or lateral link empties, (NOT) EXISTS filters', async () => {
          const contacts: number[] = [];
          for (const owner of OWNERS) {
            const { body } = await admin()
              .post('/rest/entity/contact', {
                properties: { last_name: uniqueName('c'), id_account: records[owner] },
              })
              .expect(200);
            contacts.push(body.key);
          }
          const within = `WHERE key IN (${contacts.join(', ')})`;
          const linked = (rows: { 'account.key': number | null }[]) =>
            rows
              .map((r) => r['account.key'])
              .filter((k): k is number => k !== null)
              .sort((a, b) => a - b);
          const inner = await postFetch(
            t,
            self,
            `FETCH contact (key) { account TO id_account (key) } ${within}`,
          ).expect(200);
          expect(linked(inner.body)).toEqual(reached());
          const outer = await postFetch(
            t,
            self,
            `FETCH contact (key) { account OUTER TO id_account (key) } ${within}`,
          ).expect(200);
          expect(outer.body).toHaveLength(OWNERS.length);
          expect(linked(outer.body)).toEqual(reached());
          const exists = await postFetch(
            t,
            self,
            `FETCH contact (key) { account EXISTS TO id_account } ${within}`,
          ).expect(200);
          expect(exists.body).toHaveLength(reached().length);
          // An account beyond reach is as missing: its contact has none.
          const notExists = await postFetch(
            t,
            self,
            `FETCH contact (key) { account NOT EXISTS TO id_account } ${within}`,
          ).expect(200);
          expect(notExists.body).toHaveLength(OWNERS.length - reached().length);
          // A link with its own LIMIT is a lateral join per contact: the same rule inside it.
          const lateral = await postFetch(
            t,
            self,
            `FETCH contact (key) { account OUTER TO id_account (key) ORDER BY key LIMIT 1 } ${within}`,
          ).expect(200);
          expect(lateral.body).toHaveLength(OWNERS.length);
          expect(linked(lateral.body)).toEqual(reached());
        });
      }

      if (entity === 'invoice') {
        it('reads lines, and links to invoices, under the invoice’s depth', async () => {
          const lines = await postFetch(
            t,
            self,
            `FETCH invoice_line (id_invoice) WHERE id_invoice IN (${keys()})`,
          ).expect(200);
          const of = lines.body.map((r: { id_invoice: number }) => r.id_invoice);
          expect(of.sort((a: number, b: number) => a - b)).toEqual(reached());
          const linked = await postFetch(
            t,
            self,
            `FETCH account (key) { invoice FROM id_account TO key (key) WHERE key IN (${keys()}) } WHERE key = ${adminAccount}`,
          ).expect(200);
          expect(linked.body).toHaveLength(reached().length);
        });
      }
    });

    describe.each(DEPTHS)('create, write and delete at depth %s', (depth) => {
      let records: Record<Owner, number>;

      beforeAll(async () => {
        const privileges: Record<string, Privilege> = {
          [entity]: { read: 'organization', create: depth, write: depth, delete: depth },
        };
        if (entity === 'invoice') privileges.account = { read: 'organization' };
        await f.holds(f.owners.self, [(await f.role(privileges)).key]);
        records = await recordsOfEveryOwner(entity);
      });

      it('changes, gives to itself, then deletes what the depth reaches; 403 beyond', async () => {
        for (const owner of OWNERS) {
          const ok = entity === 'file' ? 201 : 200;
          await change(entity, records[owner]).expect(expected(depth, owner, ok, 403));
          await giveToSelf(entity, records[owner]).expect(expected(depth, owner, 200, 403));
          if (entity !== 'file') {
            await caller()
              .delete(`/rest/entity/${entity}/${records[owner]}`)
              .expect(expected(depth, owner, 200, 403));
          }
        }
      });

      it('creates records owned by the caller, if the depth is not none', async () => {
        const response = await create(entity).expect(
          depth === 'none' ? 403 : entity === 'file' ? 201 : 200,
        );
        if (depth === 'none' || entity === 'file') return;
        const { body } = await caller().get(`/rest/entity/${entity}/${response.body.key}`);
        expect(body.properties).toMatchObject({
          id_user: f.owners.self,
          id_business_unit: f.units.child,
        });
      });

      if (entity === 'invoice') {
        it('runs invoicing.issue on the invoices its write reaches; 403 beyond', async () => {
          const drafts = await recordsOfEveryOwner('invoice');
          for (const owner of OWNERS) {
            const response = await caller()
              .post('/rest/workflow/invoicing/issue', { invoiceKey: drafts[owner] })
              .expect(expected(depth, owner, 200, 403));
            if (depth === 'none') {
              expect(response.body.detail).toBe('invoicing.issue needs write on invoice');
            }
          }
        });
      }
    });
  });
});
