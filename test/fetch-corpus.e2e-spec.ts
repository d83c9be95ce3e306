import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { User } from '../src/directory/entities';
import { apiKeyUser, createTestApp, postFetch, seedAdmin, TestApp } from './helpers/test-app';

interface Case {
  name: string;
  fetch: string;
  sql: string;
}

/** test/fetch/corpus.tsv: name, FETCH and SQL per line; `\n` in a field is a newline. */
const CORPUS: Case[] = readFileSync(join(__dirname, 'fetch', 'corpus.tsv'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'))
  .map((line) => {
    const [name, fetch, sql, extra] = line.split('\t').map((f) => f?.replaceAll('\\n', '\n'));
    if (!name || !fetch || !sql || extra !== undefined) throw new Error(`Bad corpus line: ${line}`);
    return { name, fetch, sql };
  });

/**
 * The cases whose SQL finds no rows on the demo data and fixtures, on purpose; every
 * other case must find some, so that a FETCH answering nothing cannot agree with an
 * SQL that finds nothing by mistake.
 */
const NO_ROWS: ReadonlySet<string> = new Set([
  // No product name holds a '%': read as a wildcard, it would find them all.
  'contains a wildcard character literally',
]);

/** Rows compared whatever their order: sorted by their JSON with sorted keys. */
function asMultiset(rows: Record<string, unknown>[]): string[] {
  return rows.map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).sort()))).sort();
}

/**
 * Invoices the demo data cannot hold: around a fixed day (2025-06-02, its boundaries
 * included) and in every period the relative operators name (yesterday to next year,
 * placed by the calendar, so that each finds rows whatever the day of the run), made by
 * another user than the seed's admin: an administrator, who may create invoices already
 * issued (InvoiceHooks).
 */
async function addFixtures(t: TestApp): Promise<void> {
  const { key } = await apiKeyUser(t, { isAdmin: true });
  const post = async (name: string, properties: object) =>
    (
      await request(t.http)
        .post(`/rest/entity/${name}`)
        .set('X-API-Key', key)
        .send({ properties })
        .expect(200)
    ).body.key as number;
  const account = await post('account', { name: 'Corpus Fixtures', country: 'RO' });
  const now = new Date();
  const day = (offsetDays: number) => new Date(now.getTime() + offsetDays * DAY_MS).toISOString();
  const utcNoon = (year: number, month: number, date: number) =>
    new Date(Date.UTC(year, month, date, 12)).toISOString();
  /** Mid-month, `months` from this one (a year rolls over); mid-year, `years` from this one. */
  const midMonth = (months: number) =>
    utcNoon(now.getUTCFullYear(), now.getUTCMonth() + months, 15);
  const midYear = (years: number) => utcNoon(now.getUTCFullYear() + years, 6, 1);
  // [issue_date, date_created]
  const dated: [string, string][] = [
    ['2025-06-01T23:59:59.999Z', '2025-06-01T12:00:00Z'],
    ['2025-06-02T00:00:00Z', '2025-06-02T00:00:00Z'],
    ['2025-06-02T23:59:59.999Z', '2025-06-02T12:00:00Z'],
    ['2025-06-03T00:00:00Z', '2025-06-03T00:00:00Z'],
    [day(0), day(0)], // issued this week and year; made today, this month
    [day(-7), day(-1)], // issued last week; made yesterday
    [day(7), day(1)], // issued next week; made tomorrow, in the next 30 days
    [midYear(-1), midMonth(-1)], // issued last year; made last month
    [midYear(1), midMonth(1)], // issued next year; made next month
  ];
  for (const [issued, created] of dated) {
    const invoice = await post('invoice', {
      id_account: account,
      status: 'issued',
      issue_date: issued,
      currency: 'EUR',
    });
    // date_created is the engine's to set: moved by hand, as if made then.
    await t.dataSource.query(`UPDATE invoice SET date_created = $1 WHERE key = $2`, [
      created,
      invoice,
    ]);
  }
}

const DAY_MS = 86_400_000;

describe('FETCH against hand-written SQL (differential corpus)', () => {
  let t: TestApp;
  let key: string;
  let admin: User;

  beforeAll(async () => {
    t = await createTestApp();
    // The seed's admin owns the demo rows, so CURRENT_USER finds some.
    ({ user: admin, key } = await seedAdmin(t));
    await addFixtures(t);
  });
  afterAll(() => t.close());

  /** The corpus's :org, :user and :unit become $n, numbered as they first appear. */
  const runSql = (sql: string) => {
    const values = { org: admin.idOrganization, user: admin.key, unit: admin.idBusinessUnit };
    const names: (keyof typeof values)[] = [];
    const text = sql.replace(/:(org|user|unit)\b/g, (_, name: keyof typeof values) => {
      if (!names.includes(name)) names.push(name);
      return `$${names.indexOf(name) + 1}`;
    });
    return t.dataSource.query(
      text,
      names.map((name) => values[name]),
    );
  };

  it('holds at least 60 cases', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
  });

  it('marks as finding no rows only cases of the corpus', () => {
    const names = new Set(CORPUS.map((c) => c.name));
    expect([...NO_ROWS].filter((name) => !names.has(name))).toEqual([]);
  });

  it.each(CORPUS.map((c) => [c.name, c] as const))('%s', async (name, { fetch, sql }) => {
    const response = await postFetch(t, key, fetch);
    expect({
      status: response.status,
      body: response.status === 200 ? 'rows' : response.body,
    }).toEqual({ status: 200, body: 'rows' });
    const expected = JSON.parse(JSON.stringify(await runSql(sql)));
    // Two empty answers agree on nothing: a case finds rows unless marked otherwise.
    expect({ sqlFindsRows: expected.length > 0 }).toEqual({ sqlFindsRows: !NO_ROWS.has(name) });
    if (/ORDER BY/i.test(fetch.replace(/\{[^}]*\}/g, ''))) {
      expect(response.body).toEqual(expected);
    } else {
      expect(asMultiset(response.body)).toEqual(asMultiset(expected));
    }
  });
});
