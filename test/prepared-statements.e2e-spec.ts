import { Pool } from 'pg';
import request from 'supertest';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { apiKeyUser, createTestApp, postFetch, TestApp } from './helpers/test-app';

/**
 * The entity engine's and the repositories' statements are prepared: each connection
 * parses and plans one once and then only binds it (src/database/statements.ts). A
 * client's FETCH query is not: its texts are as many as clients write. One pooled
 * connection, so that what it holds is what the requests left there.
 */
describe('prepared statements', () => {
  let t: TestApp;
  let key: string;
  let accountKeys: number[];

  beforeAll(async () => {
    t = await createTestApp({ DATABASE_POOL_SIZE: '1', DATABASE_POOL_RESERVED: '0' });
    ({ key } = await apiKeyUser(t));
    accountKeys = [];
    for (const name of ['Prepared One', 'Prepared Two']) {
      const { body } = await request(t.http)
        .post('/rest/entity/account')
        .set('X-API-Key', key)
        .send({ properties: { name } })
        .expect(200);
      accountKeys.push(body.key);
    }
  });
  afterAll(() => t.close());

  /** The statements prepared on the pool's one connection, by text. */
  async function prepared(): Promise<Map<string, string>> {
    const pool = (t.dataSource.driver as PostgresDriver).master as Pool;
    const { rows } = await pool.query<{ name: string; statement: string }>(
      'SELECT name, statement FROM pg_prepared_statements',
    );
    return new Map(rows.map((row) => [row.statement.replace(/\s+/g, ' '), row.name]));
  }

  it('prepares an entity read once, whatever the key, and answers from it', async () => {
    for (const accountKey of [...accountKeys, ...accountKeys]) {
      const { body } = await request(t.http)
        .get(`/rest/entity/account/${accountKey}`)
        .set('X-API-Key', key)
        .expect(200);
      expect(body.properties.key).toBe(accountKey);
    }
    const reads = [...(await prepared()).keys()].filter((text) =>
      /^SELECT .* FROM "account" t WHERE t\.key = \$1::int8/.test(text),
    );
    expect(reads).toHaveLength(1);
  });

  it('leaves a FETCH query unprepared', async () => {
    const before = await prepared();
    await postFetch(t, key, `FETCH account (name) WHERE name = 'Prepared One'`).expect(200);
    await postFetch(t, key, `FETCH account (name) WHERE name = 'Prepared Two'`).expect(200);
    const after = await prepared();
    expect([...after.keys()].filter((text) => !before.has(text))).toEqual([]);
  });
});
