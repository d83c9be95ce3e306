import request from 'supertest';
import { StatementCounter } from './helpers/statement-counter';
import {
  apiKeyUser,
  createSecondTestApp,
  createTestApp,
  HEAVY_FETCH,
  postFetch,
  TestApp,
} from './helpers/test-app';

describe('FETCH paging, counting, statements and time-out', () => {
  let t: TestApp;
  let key: string;
  let userName: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ key, userName } = await apiKeyUser(t));
  });
  afterAll(() => t.close());

  const run = (query: string, headers: Record<string, string> = {}, app = t, apiKey = key) =>
    postFetch(app, apiKey, query).set(headers);

  /** Every page of a query, following X-Fetch-Next. */
  const allPages = async (query: string) => {
    const pages: unknown[][] = [];
    let cursor: string | undefined;
    do {
      const response = await run(query, cursor ? { 'X-Fetch-Cursor': cursor } : {}).expect(200);
      pages.push(response.body);
      cursor = response.headers['x-fetch-next'];
    } while (cursor && pages.length < 100);
    return pages;
  };

  describe('keyset paging (X-Fetch-Next / X-Fetch-Cursor)', () => {
    it.each([
      [
        "FETCH invoice (number, total) WHERE status = 'paid' ORDER BY total DESC LIMIT 25",
        'a decimal, descending',
      ],
      ['FETCH invoice (number, issue_date) ORDER BY issue_date LIMIT 40', 'a nullable date-time'],
      [
        'FETCH contact (last_name, first_name) ORDER BY last_name, first_name DESC LIMIT 9',
        'two columns with ties',
      ],
      [
        'FETCH invoice (key, status) { account TO id_account (name) } ORDER BY status LIMIT 33',
        'an enum, with a to-one link',
      ],
      ['FETCH account (name) LIMIT 6', 'no ORDER BY: the key'],
    ])('reads %s page by page, as one query would (%s)', async (query) => {
      const pages = await allPages(query);
      const whole = await run(query.replace(/LIMIT \d+/, 'LIMIT 5000')).expect(200);
      expect(pages.length).toBeGreaterThan(1);
      expect(pages.flat()).toEqual(whole.body);
      const limit = Number(/LIMIT (\d+)/.exec(query)![1]);
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
    });

    it('reads every row once where timestamps differ below the millisecond', async () => {
      // now() stores microseconds: rows share a millisecond, some share the instant too.
      await t.dataSource.query(
        `UPDATE contact SET date_created = timestamptz '2026-01-01 00:00:00.000100+00'
           + make_interval(secs => (key % 7) * 0.000001 + (key % 3) * 0.001)`,
      );
      const query = 'FETCH contact (key, last_name, date_created) ORDER BY date_created LIMIT 10';
      const pages = await allPages(query);
      const whole = await run(query.replace('LIMIT 10', 'LIMIT 5000')).expect(200);
      expect(pages.length).toBeGreaterThan(2);
      expect(pages.length).toBeLessThan(100); // not the same page again and again
      expect(pages.flat()).toEqual(whole.body);
    });

    it('gives no next page when the last page is short', async () => {
      const response = await run("FETCH account (name) WHERE country = 'RO' LIMIT 1000").expect(
        200,
      );
      expect(response.body.length).toBeGreaterThan(0);
      expect(response.headers['x-fetch-next']).toBeUndefined();
    });

    it('gives no cursor where rows have no total order: aggregates, one-to-many links', async () => {
      for (const [query, limit] of [
        ['FETCH invoice (status, COUNT(*) AS n) GROUP BY status ORDER BY n LIMIT 2', 2],
        ['FETCH account (name) { contact FROM id_account TO key (first_name) } LIMIT 3', 3],
      ] as const) {
        const response = await run(query).expect(200);
        expect(response.body).toHaveLength(limit); // a full page, yet no cursor
        expect(response.headers['x-fetch-next']).toBeUndefined();
      }
    });

    it('refuses a cursor with another query, tampered, or from another caller', async () => {
      const query = 'FETCH invoice (number) ORDER BY number LIMIT 5';
      const cursor = (await run(query).expect(200)).headers['x-fetch-next'];
      expect(cursor).toEqual(expect.any(String));
      const refused = async (q: string, c: string, apiKey = key) =>
        (await run(q, { 'X-Fetch-Cursor': c }, t, apiKey).expect(400)).body.detail;
      expect(await refused(query.replace('LIMIT 5', 'LIMIT 6'), cursor)).toMatch(
        /not made for this query/,
      );
      const [payload, mac] = cursor.split('.');
      const forged = Buffer.from(JSON.stringify(['INV-9999-9999', 1])).toString('base64url');
      expect(await refused(query, `${forged}.${mac}`)).toMatch(/not made for this query/);
      expect(await refused(query, `${payload}.${mac}x`)).toMatch(/not made for this query/);
      expect(await refused(query, 'garbage')).toMatch(/not made for this query/);
      const other = await apiKeyUser(t);
      expect(await refused(query, cursor, other.key)).toMatch(/not made for this query/);
    });
  });

  describe('counting (X-Fetch-Count / X-Total-Count)', () => {
    it('counts all rows of the query, not just the page', async () => {
      const [{ n }] = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM invoice i JOIN organization o ON o.key = i.id_organization
          WHERE o.name = 'Demo' AND i.status = 'paid'`,
      );
      const response = await run("FETCH invoice (key) WHERE status = 'paid' LIMIT 3", {
        'X-Fetch-Count': 'true',
      }).expect(200);
      expect(response.body).toHaveLength(3);
      expect(response.headers['x-total-count']).toBe(String(n));
    });

    it('counts an empty result as 0, and counts groups for an aggregate', async () => {
      const none = await run("FETCH invoice (key) WHERE number = 'no such number'", {
        'X-Fetch-Count': 'true',
      }).expect(200);
      expect(none.body).toEqual([]);
      expect(none.headers['x-total-count']).toBe('0');
      const groups = await run(
        'FETCH invoice (status, COUNT(*) AS n) GROUP BY status ORDER BY status',
        {
          'X-Fetch-Count': 'true',
        },
      ).expect(200);
      expect(groups.headers['x-total-count']).toBe(String(groups.body.length));
      // An enum sorts in the order of its values, as PostgreSQL sorts it.
      expect(groups.body.map((g: { status: string }) => g.status)).toEqual([
        'draft',
        'issued',
        'paid',
        'cancelled',
      ]);
    });

    it('says the cap when there are more rows than FETCH_COUNT_CAP', async () => {
      const capped = await createSecondTestApp({ FETCH_COUNT_CAP: '100' });
      try {
        const response = await run(
          'FETCH invoice (key) LIMIT 2',
          { 'X-Fetch-Count': 'true' },
          capped,
        );
        expect(response.status).toBe(200);
        expect(response.headers['x-total-count']).toBe('100+');
      } finally {
        await capped.close();
      }
    });
  });

  describe('statements', () => {
    /**
     * The statements of one request, sent once unrecorded just before: the caller's API
     * key and privileges are cached from then on (API_KEY_CACHE_SECONDS), so the recorded
     * request runs only its own. Each test warms what it needs, whatever ran before it.
     */
    const statementsOf = async (query: string, headers: Record<string, string> = {}) => {
      const counter = await StatementCounter.attach(t);
      await run(query, headers).expect(200);
      return counter.record(() => run(query, headers).expect(200));
    };

    it('runs one SQL statement per FETCH request, links, EXISTS and count included', async () => {
      const query = `FETCH invoice (number) { account AS a TO id_account (name) }
        { invoice_line EXISTS FROM id_invoice TO key WHERE quantity > 5 }
        { invoice_line AS top FROM id_invoice TO key (quantity) ORDER BY quantity DESC LIMIT 1 }
        WHERE a.country = 'DE' LIMIT 20`;
      const statements = await statementsOf(query, { 'X-Fetch-Count': 'true' });
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/^WITH page AS \(SELECT \*/);
    });

    it('binds every value: quotes in values reach PostgreSQL as parameters', async () => {
      const statements = await statementsOf(
        "FETCH account (name) WHERE name = 'O''Brien''; DROP TABLE account; --'",
      );
      expect(statements).toHaveLength(1);
      expect(statements[0]).not.toMatch(/Brien|DROP/);
    });
  });

  describe('STATEMENT_TIMEOUT_MS', () => {
    // A self-join over the lines' quantities: millions of rows to count.
    const heavy = HEAVY_FETCH;

    it('answers 503 {detail} for a query running past it', async () => {
      const timed = await createSecondTestApp({ STATEMENT_TIMEOUT_MS: '100' });
      try {
        const response = await run(heavy, {}, timed);
        // A connection setting of the pool: no statement of its own per query.
        const [setting] = await timed.dataSource.query('SHOW statement_timeout');
        expect(setting).toEqual({ statement_timeout: '100ms' });
        expect(response.status).toBe(503);
        expect(response.body).toEqual({
          detail:
            'The query ran longer than the server allows (100 ms): narrow it with a filter or a LIMIT',
        });
      } finally {
        await timed.close();
      }
    });

    it('keeps answering other requests while a query runs in the database', async () => {
      const timed = await createSecondTestApp({ STATEMENT_TIMEOUT_MS: '2000' });
      try {
        let heavyAnswered = false;
        const heavyResponse = run(heavy, {}, timed).then((response) => {
          heavyAnswered = true;
          return response;
        });
        // Wait until the database is working on it, then ask something else.
        const running = async () =>
          (
            await t.dataSource.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity
               WHERE state = 'active' AND query LIKE '%invoice_line%'
                 AND datname = current_database() AND pid <> pg_backend_pid()`,
            )
          )[0].n > 0;
        const deadline = Date.now() + 1500;
        while (!(await running())) {
          expect(Date.now()).toBeLessThan(deadline);
          await new Promise((done) => setTimeout(done, 20));
        }
        const { body } = await request(timed.http).get('/auth').set('X-API-Key', key).expect(200);
        expect(body.userName).toBe(userName);
        expect(heavyAnswered).toBe(false);
        expect((await heavyResponse).status).toBe(503);
      } finally {
        await timed.close();
      }
    });
  });
});
