import { apiKeyUser, createTestApp, postFetch, TestApp } from './helpers/test-app';

type Rows = Record<string, unknown>[];
/** 400, or 200 with rows that pass the check. */
type Outcome = 400 | ((rows: Rows) => void);

const none: Outcome = (rows) => expect(rows).toEqual([]);
const some: Outcome = (rows) => expect(rows.length).toBeGreaterThan(0);
/** Some rows, all named `name`: an empty answer is not one of them. */
const namedOnly =
  (name: string): Outcome =>
  (rows) => {
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.name === name)).toBe(true);
  };

/**
 * Crafted queries: quotes, comments, semicolons, unicode, SQL in identifiers and values,
 * huge numbers, deep nesting, as FETCH text and as JSON trees. Each gives the right rows
 * or a 400, never a 500, and the database is the same afterwards.
 */
const CASES: [string, string | object, Outcome][] = [
  [
    'a quote closing the string, then DROP',
    "FETCH account (name) WHERE name = '''; DROP TABLE account; --'",
    none,
  ],
  ['a tautology inside the string', "FETCH account (name) WHERE name = 'x'' OR ''1''=''1'", none],
  ['a LIKE pattern with a tautology', "FETCH account (name) WHERE name LIKE '%'' OR 1=1 --'", none],
  [
    'a value with a DELETE',
    "FETCH account (name) WHERE name = 'Robert''); DELETE FROM invoice; --'",
    none,
  ],
  [
    'an IN list with a DROP',
    "FETCH account (name) WHERE country IN ('RO'')); DROP TABLE account; --')",
    none,
  ],
  ['BEGINS WITH a quote and comment', "FETCH account (name) WHERE name BEGINS WITH ''' --'", none],
  ['CONTAINS a percent sign', "FETCH account (name) WHERE name CONTAINS '%'", none],
  ['LIKE with a backslash', "FETCH account (name) WHERE name LIKE '%\\%'", none],
  ['unicode and an emoji in a value', "FETCH account (name) WHERE name = 'Ünïcödé 😀'", none],
  ['a NUL character in a value', "FETCH account (name) WHERE name = 'a\u0000b'", 400],
  ['tabs and newlines in a value', "FETCH account (name) WHERE name = 'a\tb\nc'", none],
  ['a 60 KB value', `FETCH account (name) WHERE name = '${'x'.repeat(60_000)}'`, none],
  [
    'a real name among the crafted',
    "FETCH account (name) WHERE name = 'Acme SRL' OR name = ''';--'",
    namedOnly('Acme SRL'),
  ],
  ['a quoted identifier', 'FETCH "account" (name)', 400],
  ['SQL in the select list', 'FETCH account (name"; DROP TABLE account; --)', 400],
  ['a statement after the entity', 'FETCH account; DROP TABLE account (name)', 400],
  ['a system catalog as the entity', 'FETCH pg_user (usename)', 400],
  ['a schema-qualified entity', 'FETCH information_schema.tables (table_name)', 400],
  ['a cast in a column', 'FETCH account (key::text)', 400],
  ['a subquery in ORDER BY', 'FETCH account (name) ORDER BY (SELECT 1)', 400],
  ['a statement after ORDER BY', 'FETCH account (name) ORDER BY name; DROP TABLE account', 400],
  ['a block comment', 'FETCH account (name) /* comment */', 400],
  ['a line comment hiding a statement', 'FETCH account (name) -- ; DROP TABLE account', some],
  ['two semicolons', 'FETCH account (name);;', 400],
  ['a second statement', 'FETCH account (name); DELETE FROM account', 400],
  ['a trailing semicolon and spaces', "FETCH account (name) WHERE name = 'x' ;  ", none],
  ['a tautology as a condition', "FETCH account (name) WHERE name = 'a' AND 1=1", 400],
  ['OR after CURRENT_USER', 'FETCH account (name) WHERE id_user = CURRENT_USER OR 1=1', 400],
  ['a zero-width space in a keyword', 'FETCH\u200Baccount (name)', 400],
  ['a byte-order mark before the query, read as white space', '\uFEFFFETCH account (name)', some],
  ['dollar quoting', 'FETCH account (name) WHERE name = $$x$$', 400],
  ['a backslash-escaped quote', "FETCH account (name) WHERE name = '\\' OR 1=1 --'", 400],
  ['unicode-escaped identifiers', 'FETCH account (U&"d\\0061t")', 400],
  ['an E string', "FETCH account (name) WHERE name = E'\\x27'", 400],
  ['a date with a tautology', "FETCH invoice (key) WHERE issue_date ON '2025-01-01'' OR 1=1'", 400],
  ['a statement after a period', 'FETCH invoice (key) WHERE issue_date IS LAST 1 DAYS; DROP', 400],
  ['a huge integer key', 'FETCH account (name) WHERE key = 99999999999999999999999999', 400],
  ['an exponent', 'FETCH account (name) WHERE credit_limit > 1e308', 400],
  ['an integer beyond int4', 'FETCH invoice_line (key) WHERE quantity = 2147483648', 400],
  [
    'a decimal with 33 digits',
    'FETCH account (name) WHERE credit_limit > 123456789012345678901234567890.123',
    none,
  ],
  ['a huge relative count', 'FETCH invoice (key) WHERE issue_date IS LAST 99999999999 DAYS', 400],
  ['a negative LIMIT', 'FETCH account (name) LIMIT -1', 400],
  ['a huge LIMIT', 'FETCH account (name) LIMIT 99999999999999999999', 400],
  ['an OFFSET beyond 2^53', 'FETCH account (name) OFFSET 9007199254740993', 400],
  ['OFFSET twice', 'FETCH account (name) LIMIT 1 OFFSET 1 OFFSET 2', 400],
  [
    'parentheses 40 deep',
    `FETCH account (name) WHERE ${'('.repeat(40)}name = 'x'${')'.repeat(40)}`,
    400,
  ],
  [
    'links 11 deep',
    `FETCH account (name) ${Array.from({ length: 11 }, (_, i) => `{ account AS a${i} TO key `).join('')}${'}'.repeat(11)}`,
    400,
  ],
  ['an SQL keyword as alias', 'FETCH account (name AS select) ORDER BY select LIMIT 2', some],
  ['a quoted link alias', 'FETCH account (name) { contact AS "c" FROM id_account TO key }', 400],
  ['SQL after a link', 'FETCH account (name) { contact FROM id_account TO key) --', 400],
  ['GROUP BY an aggregate', 'FETCH account (COUNT(*)) GROUP BY count', 400],
  ['a credential column', "FETCH user (user_name) WHERE password_hash LIKE 'scrypt%'", 400],
  [
    'JSON: SQL in the entity',
    { entity: 'account; DROP TABLE account', properties: [{ property: 'name' }] },
    400,
  ],
  [
    'JSON: SQL in a property',
    { entity: 'account', properties: [{ property: 'name" FROM account; --' }] },
    400,
  ],
  [
    'JSON: SQL in an alias',
    { entity: 'account', properties: [{ property: 'name', alias: 'x"; DROP TABLE account; --' }] },
    400,
  ],
  [
    'JSON: an object as a value',
    {
      entity: 'account',
      properties: [{ property: 'name' }],
      filter: [
        { type: 'And', conditions: [{ property: 'name', operator: 'eq', value: { $ne: 1 } }] },
      ],
    },
    400,
  ],
  [
    'JSON: SQL as the operator',
    {
      entity: 'account',
      properties: [{ property: 'name' }],
      filter: [
        { type: 'And', conditions: [{ property: 'name', operator: '= 1 OR 1=1 --', value: 1 }] },
      ],
    },
    400,
  ],
  ['JSON: a three-part column', { entity: 'account', properties: [{ property: 'a.b.c' }] }, 400],
  [
    'JSON: SQL as the LIMIT',
    { entity: 'account', properties: [{ property: 'name' }], limit: '10; DROP TABLE account' },
    400,
  ],
  [
    'JSON: a fractional LIMIT',
    { entity: 'account', properties: [{ property: 'name' }], limit: 1.5 },
    400,
  ],
  [
    'JSON: SQL as the group type',
    {
      entity: 'account',
      properties: [{ property: 'name' }],
      filter: [{ type: 'Or 1=1', conditions: [{ property: 'name', operator: 'null' }] }],
    },
    400,
  ],
  [
    'JSON: a quote in a value',
    {
      entity: 'account',
      properties: [{ property: 'name' }],
      filter: [
        {
          type: 'And',
          conditions: [{ property: 'name', operator: 'eq', value: "'; DROP TABLE account; --" }],
        },
      ],
    },
    none,
  ],
  [
    'JSON: SQL in a link TO',
    {
      entity: 'account',
      properties: [{ property: 'name' }],
      links: [{ entity: 'contact', from: 'id_account', to: 'key = key OR 1=1' }],
    },
    400,
  ],
];

describe('FETCH against crafted input', () => {
  let t: TestApp;
  let key: string;
  let before: unknown;

  /** What must not change: row counts and the latest change of every table a query reads. */
  const fingerprint = () =>
    t.dataSource.query(`
      SELECT (SELECT count(*) FROM account) AS accounts, (SELECT max(date_updated) FROM account) AS a,
             (SELECT count(*) FROM contact) AS contacts, (SELECT count(*) FROM product) AS products,
             (SELECT count(*) FROM invoice) AS invoices, (SELECT max(date_updated) FROM invoice) AS i,
             (SELECT count(*) FROM invoice_line) AS lines, (SELECT count(*) FROM "user") AS users,
             (SELECT count(*) FROM organization) AS organizations`);

  beforeAll(async () => {
    t = await createTestApp();
    // An administrator: some queries filter on account.credit_limit, a secured property.
    ({ key } = await apiKeyUser(t, { isAdmin: true }));
    before = await fingerprint();
  });
  afterAll(() => t.close());

  it('has at least 50 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(50);
  });

  it.each(CASES)('%s', async (_, body, outcome) => {
    const response = await postFetch(t, key, body);
    if (outcome === 400) {
      expect({ status: response.status, detail: typeof response.body.detail }).toEqual({
        status: 400,
        detail: 'string',
      });
    } else {
      expect(response.status).toBe(200);
      outcome(response.body);
    }
  });

  it('leaves the database as it was', async () => {
    expect(await fingerprint()).toEqual(before);
  });
});
