import request from 'supertest';
import {
  apiKeyUser,
  createSecondTestApp,
  createTestApp,
  postFetch,
  sessionOfNewUser,
  TestApp,
} from './helpers/test-app';

describe('POST /rest/fetch and POST /rest/metadata/fetch', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    // An administrator: these queries read account.credit_limit, a secured property.
    ({ key } = await apiKeyUser(t, { isAdmin: true }));
  });
  afterAll(() => t.close());

  const run = (body: string | object) => postFetch(t, key, body);
  const refusal = async (query: string) => (await run(query).expect(400)).body.detail as string;

  describe('results', () => {
    it('keys rows by property, alias and <link>.<property>, with the types of FETCH.md §2', async () => {
      const { body, headers } = await run(
        `FETCH invoice (key AS id, number, total, issue_date, currency)
           { account AS a TO id_account (name, credit_limit) }
           { invoice_line FROM id_invoice TO key (quantity) WHERE quantity = 20 }
         WHERE status = 'paid' ORDER BY total DESC LIMIT 3`,
      ).expect(200);
      expect(headers['server-timing']).toMatch(/^compile;dur=[\d.]+, db;dur=[\d.]+$/);
      expect(body).toHaveLength(3);
      for (const row of body) {
        expect(Object.keys(row)).toEqual([
          'id',
          'number',
          'total',
          'issue_date',
          'currency',
          'a.name',
          'a.credit_limit',
          'invoice_line.quantity',
        ]);
        expect(row).toMatchObject({
          id: expect.any(Number),
          number: expect.stringMatching(/^INV-/),
          total: expect.stringMatching(/^\d+\.\d{2}$/),
          issue_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          'a.credit_limit': expect.stringMatching(/^\d+\.00$/),
          'invoice_line.quantity': 20,
        });
      }
      const totals = body.map((row: { total: string }) => Number(row.total));
      expect(totals).toEqual([...totals].sort((x, y) => y - x));
    });

    it('keeps nulls and booleans as they are', async () => {
      const { body } = await run(
        `FETCH invoice (number, issue_date) { account OUTER TO id_account (name) }
         WHERE status = 'draft' LIMIT 1`,
      ).expect(200);
      expect(body[0]).toEqual({
        number: null,
        issue_date: null,
        'account.name': expect.any(String),
      });
      const products = await run(`FETCH product (active) WHERE code = 'P-010'`).expect(200);
      expect(products.body).toEqual([{ active: false }]);
    });

    it('keeps aliases longer than a PostgreSQL name (63 bytes) apart, in order, and orders by them', async () => {
      const long = 'a_very_long_alias_that_goes_on_past_what_postgresql_keeps_in_a_name';
      const query = `FETCH invoice (number, total AS ${long}_total, status AS ${long}_status,
          currency AS ${long}_currency) { account TO id_account (name AS ${long}_account) }
        WHERE status = 'paid' ORDER BY ${long}_total DESC, number LIMIT 3`;
      const { body } = await run(query).expect(200);
      const expected = await run(
        `FETCH invoice (number, total, status, currency) { account TO id_account (name) }
         WHERE status = 'paid' ORDER BY total DESC, number LIMIT 3`,
      ).expect(200);
      expect(body).toEqual(
        expected.body.map((row: Record<string, unknown>) => ({
          number: row.number,
          [`${long}_total`]: row.total,
          [`${long}_status`]: 'paid',
          [`${long}_currency`]: row.currency,
          [`${long}_account`]: row['account.name'],
        })),
      );
      expect(Object.keys(body[0])).toEqual([
        'number',
        `${long}_total`,
        `${long}_status`,
        `${long}_currency`,
        `${long}_account`,
      ]);
    });

    it('answers integers beyond 2^53 as exact strings', async () => {
      await t.dataSource.query(
        `INSERT INTO account (key, id_organization, id_business_unit, id_user, name)
         SELECT 9007199254740993, id_organization, id_business_unit, key, 'Huge Key Ltd'
           FROM "user" WHERE user_name = 'admin'`,
      );
      const { body } = await run(`FETCH account (key) WHERE name = 'Huge Key Ltd'`).expect(200);
      expect(body).toEqual([{ key: '9007199254740993' }]);
    });

    it('takes the JSON tree as well as the text, with the same rows', async () => {
      const text = `FETCH account (name, key AS id) WHERE country = 'DE' ORDER BY name LIMIT 5`;
      const { body: parsed } = await request(t.http)
        .post('/rest/fetch/parse')
        .set('X-API-Key', key)
        .set('Content-Type', 'text/plain')
        .send(text)
        .expect(200);
      const fromText = await run(text).expect(200);
      const fromTree = await run(parsed).expect(200);
      const fromBareTree = await run(parsed.fetch[0]).expect(200);
      expect(fromText.body.length).toBeGreaterThan(0);
      expect(fromTree.body).toEqual(fromText.body);
      expect(fromBareTree.body).toEqual(fromText.body);
    });

    it('answers 400 for a JSON tree of the wrong shape', async () => {
      for (const [tree, detail] of [
        [{ fetch: [] }, /exactly one query/],
        [{ fetch: [{ entity: 'account', properties: 'name' }] }, /properties must be a array/],
        [
          { entity: 'account', properties: [{ property: 'name' }], colour: 1 },
          /unknown key "colour"/,
        ],
        [
          { entity: 'account', properties: [{ property: 'name', aggregate: 'median' }] },
          /unknown aggregate/,
        ],
        [[1, 2], /must be an object/],
      ] as const) {
        const { body } = await run(tree).expect(400);
        expect(body.detail).toMatch(detail);
      }
    });

    it('describes the columns without running the query', async () => {
      const { body } = await postFetch(
        t,
        key,
        `FETCH invoice (status, SUM(total) AS revenue, COUNT(*) AS n, MONTH(issue_date) AS month)
           { account OUTER TO id_account (name AS account) }
         GROUP BY status, month, account`,
        '/rest/metadata/fetch',
      ).expect(200);
      expect(body).toEqual({
        columns: [
          {
            name: 'status',
            entity: 'invoice',
            property: 'status',
            type: 'string',
            nullable: false,
          },
          {
            name: 'revenue',
            entity: 'invoice',
            property: 'total',
            type: 'decimal',
            aggregate: 'sum',
            nullable: true,
          },
          {
            name: 'n',
            entity: 'invoice',
            property: '*',
            type: 'bigint',
            aggregate: 'count',
            nullable: false,
          },
          {
            name: 'month',
            entity: 'invoice',
            property: 'issue_date',
            type: 'string',
            nullable: true,
          },
          { name: 'account', entity: 'account', property: 'name', type: 'string', nullable: true },
        ],
      });
    });
  });

  describe('values a reader expects', () => {
    /** Three invoices of an account of their own, at known instants and totals. */
    let account: number;
    beforeAll(async () => {
      const post = async (name: string, body: object) =>
        (
          await request(t.http)
            .post(`/rest/entity/${name}`)
            .set('X-API-Key', key)
            .send(body)
            .expect(200)
        ).body.key as number;
      account = await post('account', { properties: { name: 'Calendar Readers SRL' } });
      for (const [issued, quantity, price] of [
        ['2025-12-29T10:00:00Z', 1, '10.00'],
        ['2026-01-31T23:30:00Z', 2, '10.00'],
        ['2026-02-01T00:30:00Z', 2, '15.01'],
      ] as const) {
        await post('invoice', {
          properties: { id_account: account, issue_date: issued, status: 'issued' },
          children: {
            invoice_invoice_line: [{ properties: { quantity, unit_price: price } }],
          },
        });
      }
    });

    it('groups dates by YEAR, QUARTER, MONTH, WEEK and DAY as values that read as what they name', async () => {
      const { body } = await run(
        `FETCH invoice (YEAR(issue_date) AS y, QUARTER(issue_date) AS q, MONTH(issue_date) AS m,
                        WEEK(issue_date) AS w, DAY(issue_date) AS d, COUNT(*) AS n)
         WHERE id_account = ${account} GROUP BY y, q, m, w, d ORDER BY d ASC`,
      ).expect(200);
      expect(body).toEqual([
        // An ISO week is of the year its Thursday is in: 29 December 2025 is in 2026's first.
        { y: 2025, q: '2025-Q4', m: '2025-12', w: '2026-W01', d: '2025-12-29', n: 1 },
        // UTC: 23:30 on the 31st is January's, 00:30 on the 1st February's.
        { y: 2026, q: '2026-Q1', m: '2026-01', w: '2026-W05', d: '2026-01-31', n: 1 },
        { y: 2026, q: '2026-Q1', m: '2026-02', w: '2026-W05', d: '2026-02-01', n: 1 },
      ]);
      const { body: byWeek } = await run(
        `FETCH invoice (WEEK(issue_date) AS w, COUNT(*) AS n) WHERE id_account = ${account}
         GROUP BY w ORDER BY w DESC`,
      ).expect(200);
      expect(byWeek).toEqual([
        { w: '2026-W05', n: 2 },
        { w: '2026-W01', n: 1 },
      ]);
      const { body: columns } = await postFetch(
        t,
        key,
        `FETCH invoice (YEAR(issue_date) AS y, MONTH(issue_date) AS m, DAY(issue_date) AS d)`,
        '/rest/metadata/fetch',
      ).expect(200);
      expect(columns.columns.map((c: { type: string }) => c.type)).toEqual([
        'integer',
        'string',
        'date',
      ]);
    });

    it('averages to the property’s scale and four digits more', async () => {
      const { body } = await run(
        `FETCH invoice (AVG(total) AS total, SUM(total) AS sum)
           { invoice_line FROM id_invoice TO key (AVG(quantity) AS quantity) }
         WHERE id_account = ${account}`,
      ).expect(200);
      // Totals 10.00, 20.00 and 30.02: 60.02 / 3 = 20.00666…; quantities 1, 2, 2.
      expect(body).toEqual([{ total: '20.006667', sum: '60.02', quantity: '1.6667' }]);
    });
  });

  describe('names and types', () => {
    it.each([
      ['FETCH acount (name)', 'unknown entity "acount" (did you mean "account"?)'],
      ['FETCH account (nmae)', 'account has no property "nmae" (did you mean "name"?)'],
      [
        'FETCH invoice (number) { account TO id_acount (name) }',
        'invoice has no property "id_acount" (did you mean "id_account"?)',
      ],
      ['FETCH user (password_hash)', 'user has no property "password_hash"'],
      [
        'FETCH account (name) { contact TO id_account (first_name) }',
        'account has no property "id_account": for the contact rows that point at it, write { contact FROM id_account TO key }',
      ],
      [
        'FETCH user (user_name) WHERE password_hash IS NULL',
        'user has no property "password_hash"',
      ],
      [
        'FETCH invoice (number) { account FROM name TO id_account (name) }',
        'link account: FROM account.name (string) cannot be compared with TO invoice.id_account (bigint)',
      ],
      [
        "FETCH invoice (number) WHERE total = 'abc'",
        /total: "abc" does not fit: expected a decimal/,
      ],
      ['FETCH invoice (number) WHERE status = 5', /status: 5 does not fit: expected a string/],
      [
        "FETCH invoice (number) WHERE status = 'lost'",
        /must be one of draft, issued, paid, cancelled/,
      ],
      ['FETCH invoice (number) WHERE total LIKE 5', /expected a string but found "5"/],
      [
        "FETCH invoice (number) WHERE total LIKE '5%'",
        'total: like needs a string column, not a decimal',
      ],
      [
        'FETCH invoice (number) WHERE total IS TODAY',
        'total: today needs a date or date-time column, not a decimal',
      ],
      ['FETCH invoice (SUM(number))', 'number: SUM needs a number, not a string'],
      [
        'FETCH invoice (MONTH(total) AS m) GROUP BY m',
        'total: MONTH() groups dates, not a decimal',
      ],
      ['FETCH invoice (number) WHERE total < NULL', 'total: compare with NULL using IS NULL'],
      [
        'FETCH invoice (number) WHERE status = CURRENT_USER',
        'status: CURRENT_USER and friends compare with a key, not a string',
      ],
      [
        'FETCH account (name) { contact AS c FROM id_account TO key (first_name) } ORDER BY first_nam',
        'account has no property "first_nam"',
      ],
      [
        'FETCH account (name) { invoice EXISTS FROM id_account TO key { account AS a TO id_account } } WHERE a.name = 1',
        '"a.name": link "a" is inside an EXISTS link, whose rows are never joined',
      ],
      [
        'FETCH account (name) { invoice FROM id_account TO key LIMIT 1 } { contact FROM id_account TO key WHERE invoice.number = 1 }',
        '"invoice.number" inside link "contact": a qualified column there names that link or one around it',
      ],
      [
        'FETCH account (name) { invoice EXISTS FROM id_account TO key LIMIT 1 }',
        /an EXISTS link only filters/,
      ],
      [
        'FETCH invoice (status, COUNT(*) AS n) GROUP BY status ORDER BY total',
        /cannot ORDER BY "total"/,
      ],
      [
        'FETCH account (*) { contact FROM id_account TO key (*) AS x }',
        'line 1, column 56: expected "{", "WHERE", "ORDER BY", "OFFSET", "LIMIT" or "}" but found "AS"',
      ],
    ])('answers 400 for %s', async (query, detail) => {
      expect(await refusal(query)).toEqual(
        typeof detail === 'string' ? detail : expect.stringMatching(detail),
      );
    });
  });

  describe('limits', () => {
    let limited: TestApp;

    beforeAll(async () => {
      limited = await createSecondTestApp({
        FETCH_DEFAULT_ROWS: '7',
        FETCH_MAX_ROWS: '50',
        FETCH_MAX_IN_LIST: '3',
        FETCH_MAX_LINK_DEPTH: '2',
      });
    });
    afterAll(() => limited.close());

    // Another app on the same database: the same API key works there.
    const runLimited = (query: string) => postFetch(limited, key, query);

    it('returns at most FETCH_DEFAULT_ROWS rows without LIMIT, and LIMIT up to FETCH_MAX_ROWS', async () => {
      expect((await runLimited('FETCH invoice (key)').expect(200)).body).toHaveLength(7);
      expect((await runLimited('FETCH invoice (key) LIMIT 50').expect(200)).body).toHaveLength(50);
    });

    it('refuses a LIMIT above FETCH_MAX_ROWS, for the query and for a link', async () => {
      expect((await runLimited('FETCH invoice (key) LIMIT 51').expect(400)).body.detail).toBe(
        "LIMIT 51 is above this server's maximum of 50 rows",
      );
      await runLimited('FETCH account (key) { invoice FROM id_account TO key LIMIT 51 }').expect(
        400,
      );
    });

    it('refuses an IN list longer than FETCH_MAX_IN_LIST', async () => {
      await runLimited("FETCH account (key) WHERE country IN ('RO', 'DE', 'FR')").expect(200);
      const { body } = await runLimited(
        "FETCH account (key) WHERE country IN ('RO', 'DE', 'FR', 'IT')",
      ).expect(400);
      expect(body.detail).toBe('country: an IN list holds at most 3 values, not 4');
    });

    it('refuses links nested deeper than FETCH_MAX_LINK_DEPTH', async () => {
      await runLimited(
        'FETCH invoice_line (key) { invoice TO id_invoice { account TO id_account } }',
      ).expect(200);
      const { body } = await runLimited(
        'FETCH invoice_line (key) { invoice TO id_invoice { account TO id_account { user TO id_user } } }',
      ).expect(400);
      expect(body.detail).toMatch(/links are nested deeper than 2/);
    });
  });

  describe('HTTP', () => {
    it('answers 401 without credentials, and 403 for a cookie session without CSRF header', async () => {
      await request(t.http)
        .post('/rest/fetch')
        .set('Content-Type', 'text/plain')
        .send('FETCH account (name)')
        .expect(401);
      const session = await sessionOfNewUser(t);
      const post = () =>
        request(t.http)
          .post('/rest/fetch')
          .set('Cookie', session.cookie)
          .set('Content-Type', 'text/plain');
      await post().send('FETCH account (name)').expect(403);
      await post().set('X-CSRF-Token', session.csrfToken).send('FETCH account (name)').expect(200);
    });

    it('answers 415 to a body that is neither text nor JSON, 400 with a position to bad text', async () => {
      await request(t.http)
        .post('/rest/fetch')
        .set('X-API-Key', key)
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('q=1')
        .expect(415);
      const { body } = await run('FETCH account (name').expect(400);
      expect(body).toEqual({
        detail: 'line 1, column 20: expected "AS", "," or ")" but found end of query',
        line: 1,
        column: 20,
      });
    });
  });
});
