import { AddressInfo } from 'node:net';
import { AccessFixture } from './helpers/access';
import {
  apiKeyUser,
  createOrganization,
  createTestApp,
  seedAdmin,
  TestApp,
  uniqueName,
} from './helpers/test-app';

/** Clients per organization, each with requests in flight one after the other. */
const CLIENTS = 10;
const REQUESTS_PER_CLIENT = 30;

interface Caller {
  name: string;
  apiKey: string;
  organizationKey: number;
  invoiceKeys: number[];
}

/**
 * Many clients of two organizations at once, on the pool of a real PostgreSQL server
 * process (the embedded one by default): every answer must be the caller's, for the key
 * asked. The embedded database of earlier versions (PGlite behind one socket) mixed up
 * the statements of concurrent connections and answered other organizations' rows.
 */
describe('concurrent clients of two organizations', () => {
  let t: TestApp;
  let base: string;
  let demo: Caller;
  let other: Caller;

  const call = async (caller: Caller, method: string, path: string, body?: unknown) => {
    const text = typeof body === 'string';
    const response = await fetch(base + path, {
      method,
      headers: {
        'X-API-Key': caller.apiKey,
        ...(body === undefined ? {} : { 'Content-Type': text ? 'text/plain' : 'application/json' }),
      },
      body: body === undefined ? undefined : text ? body : JSON.stringify(body),
    });
    const answer = await response.text();
    return { status: response.status, body: answer ? JSON.parse(answer) : undefined };
  };

  /** `CLIENTS` clients per caller, at once; each runs `work` `times` times in a row. */
  const concurrently = async (
    callers: Caller[],
    times: number,
    work: (caller: Caller, client: number, round: number) => Promise<string | undefined>,
  ): Promise<{ answered: number; problems: string[] }> => {
    const problems: string[] = [];
    let answered = 0;
    await Promise.all(
      callers.flatMap((caller) =>
        Array.from({ length: CLIENTS }, async (_, client) => {
          for (let round = 0; round < times; round++) {
            const problem = await work(caller, client, round);
            answered++;
            if (problem) problems.push(`${caller.name} client ${client}: ${problem}`);
          }
        }),
      ),
    );
    return { answered, problems };
  };

  const invoiceKeysOf = async (organizationKey: number): Promise<number[]> =>
    (
      await t.dataSource.query(`SELECT key FROM invoice WHERE id_organization = $1`, [
        organizationKey,
      ])
    ).map((row: { key: number }) => row.key);

  const pick = <T>(values: T[], seed: number): T => values[seed % values.length];

  beforeAll(async () => {
    // An organization's clients are one user here: its share of FETCH turns must not
    // refuse them, as it would for one user sending ten at once (statement-slots suite).
    t = await createTestApp({ DATABASE_POOL_SIZE: '10', STATEMENTS_PER_USER: String(CLIENTS) });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.http.address() as AddressInfo).port}`;

    const { user: admin, key: demoKey } = await seedAdmin(t);
    demo = {
      name: 'Demo',
      apiKey: demoKey,
      organizationKey: admin.idOrganization,
      invoiceKeys: [],
    };
    const organization = await createOrganization(t);
    const otherAdmin = await apiKeyUser(t, {
      organizationKey: organization.organization.key,
      isAdmin: true,
    });
    other = {
      name: 'Other',
      apiKey: otherAdmin.key,
      organizationKey: organization.organization.key,
      invoiceKeys: [],
    };
    // The other organization's own invoices, made as its users would.
    const account = await call(other, 'POST', '/rest/entity/account', {
      properties: { name: 'Other Ltd' },
    });
    for (let i = 0; i < 40; i++) {
      await call(other, 'POST', '/rest/entity/invoice', {
        properties: { id_account: account.body.key, currency: 'EUR' },
        children: {
          invoice_invoice_line: [{ properties: { quantity: 1 + i, unit_price: '2.50' } }],
        },
      });
    }
    demo.invoiceKeys = await invoiceKeysOf(demo.organizationKey);
    other.invoiceKeys = await invoiceKeysOf(other.organizationKey);
    expect(demo.invoiceKeys.length).toBeGreaterThan(100);
    expect(other.invoiceKeys).toHaveLength(40);
  });
  afterAll(() => t?.close());

  it('answers every read with the caller’s own row for the key asked, and 404 for another’s', async () => {
    const stranger = (caller: Caller) => (caller === demo ? other : demo);
    const { answered, problems } = await concurrently(
      [demo, other],
      REQUESTS_PER_CLIENT,
      async (caller, client, round) => {
        const seed = client * REQUESTS_PER_CLIENT + round;
        switch (round % 3) {
          case 0: {
            const key = pick(caller.invoiceKeys, seed * 7);
            const { status, body } = await call(caller, 'GET', `/rest/entity/invoice/${key}`);
            if (status !== 200) return `GET invoice ${key}: ${status} ${JSON.stringify(body)}`;
            const { key: answeredKey, id_organization: organization } = body.properties;
            if (answeredKey !== key || organization !== caller.organizationKey) {
              return `GET invoice ${key} answered invoice ${answeredKey} of ${organization}`;
            }
            return undefined;
          }
          case 1: {
            const key = pick(stranger(caller).invoiceKeys, seed * 11);
            const { status } = await call(caller, 'GET', `/rest/entity/invoice/${key}`);
            return status === 404 ? undefined : `GET another's invoice ${key}: ${status}`;
          }
          default: {
            const keys = [0, 1, 2].map((i) => pick(caller.invoiceKeys, seed * 13 + i * 5));
            const query = `FETCH invoice (key, id_organization) WHERE key IN (${keys.join(', ')}) ORDER BY key`;
            const { status, body } = await call(caller, 'POST', '/rest/fetch', query);
            if (status !== 200) return `FETCH: ${status} ${JSON.stringify(body)}`;
            const expected = [...new Set(keys)]
              .sort((a, b) => a - b)
              .map((key) => ({ key, id_organization: caller.organizationKey }));
            const same = JSON.stringify(body) === JSON.stringify(expected);
            return same ? undefined : `FETCH of ${keys.join(',')} answered ${JSON.stringify(body)}`;
          }
        }
      },
    );
    expect(problems).toEqual([]);
    expect(answered).toBe(2 * CLIENTS * REQUESTS_PER_CLIENT);
  });

  it('answers the same FETCH text, sent by both at once, with each caller’s own rows', async () => {
    // One text, so one parsed tree shared by every request (FetchService's cache); the
    // caller is applied when compiling, request by request.
    // With its account: the page is cut from the caller's invoices before the join.
    const query =
      'FETCH invoice (key, id_organization) { account AS a TO id_account (id_organization) } ORDER BY key DESC LIMIT 20';
    // Other suites add Demo invoices meanwhile: its newest keys move, its organization not.
    const other20 = [...other.invoiceKeys].sort((a, b) => b - a).slice(0, 20);
    const { answered, problems } = await concurrently(
      [demo, other],
      REQUESTS_PER_CLIENT,
      async (caller) => {
        const { status, body } = await call(caller, 'POST', '/rest/fetch', query);
        if (status !== 200) return `FETCH: ${status} ${JSON.stringify(body)}`;
        const rows = body as {
          key: number;
          id_organization: number;
          'a.id_organization': number;
        }[];
        const answer = `FETCH answered ${JSON.stringify(body).slice(0, 200)}`;
        if (rows.length !== 20) return answer;
        if (rows.some((row) => row.id_organization !== caller.organizationKey)) return answer;
        if (rows.some((row) => row['a.id_organization'] !== caller.organizationKey)) return answer;
        const keys = rows.map((row) => row.key).join();
        return caller === other && keys !== other20.join() ? answer : undefined;
      },
    );
    expect(problems).toEqual([]);
    expect(answered).toBe(2 * CLIENTS * REQUESTS_PER_CLIENT);
  });

  it('stamps every row written at once with its writer’s organization, and loses none', async () => {
    const run = uniqueName('burst');
    const { problems } = await concurrently([demo, other], 5, async (caller, client, round) => {
      const name = `${run} ${caller.name} ${client}.${round}`;
      const created = await call(caller, 'POST', '/rest/entity/account', { properties: { name } });
      if (created.status !== 200)
        return `create: ${created.status} ${JSON.stringify(created.body)}`;
      const read = await call(caller, 'GET', `/rest/entity/account/${created.body.key}`);
      const { properties } = read.body ?? {};
      if (properties?.name !== name || properties?.id_organization !== caller.organizationKey) {
        return `account ${created.body.key} read back as ${JSON.stringify(read.body)}`;
      }
      return undefined;
    });
    expect(problems).toEqual([]);
    for (const caller of [demo, other]) {
      const rows: { name: string }[] = (
        await call(caller, 'POST', '/rest/fetch', `FETCH account (name) WHERE name LIKE '${run}%'`)
      ).body;
      expect(rows).toHaveLength(CLIENTS * 5);
      expect(rows.every((row) => row.name.startsWith(`${run} ${caller.name} `))).toBe(true);
    }
  });

  it('takes a caller’s own account and refuses the other organization’s, creates at once', async () => {
    const accountOf = async (caller: Caller): Promise<number> =>
      (
        await t.dataSource.query(
          `SELECT key FROM account WHERE id_organization = $1 ORDER BY key LIMIT 1`,
          [caller.organizationKey],
        )
      )[0].key;
    const accounts = new Map([
      [demo, await accountOf(demo)],
      [other, await accountOf(other)],
    ]);
    const stranger = (caller: Caller) => (caller === demo ? other : demo);
    const run = uniqueName('lookup');
    const { answered, problems } = await concurrently(
      [demo, other],
      6,
      async (caller, client, round) => {
        // The lookup is checked inside the invoice's INSERT: half point at the other's account.
        const foreign = (client + round) % 2 === 1;
        const account = accounts.get(foreign ? stranger(caller) : caller)!;
        const { status, body } = await call(caller, 'POST', '/rest/entity/invoice', {
          properties: { id_account: account, number: `${run} ${caller.name} ${client}.${round}` },
        });
        const expected = foreign ? 400 : 200;
        if (status !== expected)
          return `create with account ${account}: ${status} ${JSON.stringify(body)}`;
        if (foreign && body.detail !== `invoice.id_account: no account with key ${account}`) {
          return `refused as ${JSON.stringify(body)}`;
        }
        return undefined;
      },
    );
    expect(problems).toEqual([]);
    expect(answered).toBe(2 * CLIENTS * 6);
    const written: { id_organization: number; account_organization: number }[] =
      await t.dataSource.query(
        `SELECT i.id_organization, a.id_organization AS account_organization
           FROM invoice i JOIN account a ON a.key = i.id_account WHERE i.number LIKE $1`,
        [`${run}%`],
      );
    expect(written).toHaveLength(CLIENTS * 6); // half of each organization's creates
    expect(written.every((row) => row.id_organization === row.account_organization)).toBe(true);
  });

  it('numbers invoices issued at once in a row, per organization, each number once', async () => {
    const year = new Date().getUTCFullYear();
    const highest = async (caller: Caller): Promise<number> => {
      const [{ last }] = await t.dataSource.query(
        `SELECT max(number) AS last FROM invoice WHERE id_organization = $1 AND number LIKE $2`,
        [caller.organizationKey, `INV-${year}-%`],
      );
      return last ? Number(last.slice(`INV-${year}-`.length)) : 0;
    };
    const drafts = async (caller: Caller, count: number): Promise<number[]> => {
      const [{ key: account }] = await t.dataSource.query(
        `SELECT key FROM account WHERE id_organization = $1 LIMIT 1`,
        [caller.organizationKey],
      );
      const keys: number[] = [];
      for (let i = 0; i < count; i++) {
        const created = await call(caller, 'POST', '/rest/entity/invoice', {
          properties: { id_account: account },
        });
        keys.push(created.body.key);
      }
      return keys;
    };

    const callers = [demo, other];
    const before = await Promise.all(callers.map(highest));
    const keys = await Promise.all(callers.map((caller) => drafts(caller, 8)));
    const answers = await Promise.all(
      callers.flatMap((caller, c) =>
        keys[c].map((invoiceKey) =>
          call(caller, 'POST', '/rest/workflow/invoicing/issue', { invoiceKey }),
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(16).fill(200));
    callers.forEach((caller, c) => {
      const numbers = answers
        .slice(c * 8, c * 8 + 8)
        .map((answer) => Number(answer.body.number.slice(`INV-${year}-`.length)))
        .sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 8 }, (_, i) => before[c] + 1 + i));
    });
  });

  it('answers users of one organization at once, each within the depth its roles give', async () => {
    // Each request carries its own caller to the services and its own access scope (the
    // scope is worked out once per Identity object, and the guard copies it per request).
    const f = await AccessFixture.create(t);
    const ownOnly = await f.role({ account: { read: 'user' } });
    const everything = await f.role({ account: { read: 'organization' } });
    const userOf = async (name: string, role: string) => {
      const { key, apiKey } = await f.user(f.units.child, [role]);
      const caller: Caller = {
        name,
        apiKey,
        organizationKey: demo.organizationKey,
        invoiceKeys: [],
      };
      return { key, caller };
    };
    const { key: narrowKey, caller: narrow } = await userOf('narrow', ownOnly.name);
    const { caller: wide } = await userOf('wide', everything.name);
    const account = async (): Promise<number> =>
      (
        await call(demo, 'POST', '/rest/entity/account', {
          properties: { name: uniqueName('acc') },
        })
      ).body.key;
    const narrowsOwn = await account();
    const given = await call(demo, 'POST', `/rest/entity/account/${narrowsOwn}/owner`, {
      userKey: narrowKey,
    });
    expect(given.status).toBe(200);
    const administrators = await account();
    const reachable = (caller: Caller) =>
      caller === narrow ? [narrowsOwn] : [narrowsOwn, administrators];

    const { answered, problems } = await concurrently(
      [narrow, wide],
      10,
      async (caller, _, round) => {
        if (round % 2 === 0) {
          const query = `FETCH account (key) WHERE key IN (${narrowsOwn}, ${administrators}) ORDER BY key`;
          const { status, body } = await call(caller, 'POST', '/rest/fetch', query);
          const keys = status === 200 ? (body as { key: number }[]).map((row) => row.key) : body;
          return JSON.stringify(keys) === JSON.stringify(reachable(caller))
            ? undefined
            : `FETCH answered ${status} ${JSON.stringify(keys)}`;
        }
        for (const key of [narrowsOwn, administrators]) {
          const { status } = await call(caller, 'GET', `/rest/entity/account/${key}`);
          if (status !== (reachable(caller).includes(key) ? 200 : 404)) {
            return `read of account ${key}: ${status}`;
          }
        }
        return undefined;
      },
    );
    expect(problems).toEqual([]);
    expect(answered).toBe(2 * CLIENTS * 10);
  });
});
