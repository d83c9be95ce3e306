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

/** Rows compared whatever their order: sorted by their JSON with sorted keys. */
function asMultiset(rows: Record<string, unknown>[]): string[] {
  return rows.map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).sort()))).sort();
}

/**
 * Invoices the demo data cannot hold: around a fixed day (2025-06-02, its boundaries
 * included) and in the days to come, made by another user than the seed's admin: an
 * administrator, who may create invoices already issued (InvoiceHooks).
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
  const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString();
  const dated: [string, string][] = [
    ['2025-06-01T23:59:59.999Z', '2025-06-01T12:00:00Z'],
    ['2025-06-02T00:00:00Z', '2025-06-02T00:00:00Z'],
    ['2025-06-02T23:59:59.999Z', '2025-06-02T12:00:00Z'],
    ['2025-06-03T00:00:00Z', '2025-06-03T00:00:00Z'],
    [day(1), day(1)],
    [day(8), day(-1)],
    [day(20), day(35)],
    [day(400), day(400)],
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

  it.each(CORPUS.map((c) => [c.name, c] as const))('%s', async (_, { fetch, sql }) => {
    const response = await postFetch(t, key, fetch);
    expect({
      status: response.status,
      body: response.status === 200 ? 'rows' : response.body,
    }).toEqual({ status: 200, body: 'rows' });
    const expected = JSON.parse(JSON.stringify(await runSql(sql)));
    if (/ORDER BY/i.test(fetch.replace(/\{[^}]*\}/g, ''))) {
      expect(response.body).toEqual(expected);
    } else {
      expect(asMultiset(response.body)).toEqual(asMultiset(expected));
    }
  });
});
