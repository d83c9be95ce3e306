import { Pool } from 'pg';
import request from 'supertest';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { apiKeyUser, createTestApp, HEAVY_FETCH, postFetch, TestApp } from './helpers/test-app';

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
    t = await createTestApp({
      DATABASE_POOL_SIZE: '1',
      DATABASE_POOL_RESERVED: '0',
      STATEMENT_TIMEOUT_MS: '500',
    });
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

  /** The pool's one connection: its backend, and the texts prepared on it (one per name). */
  async function connection(): Promise<{ pid: number; prepared: string[] }> {
    const pool = (t.dataSource.driver as PostgresDriver).master as Pool;
    const { rows } = await pool.query<{ pid: number; statement: string | null }>(
      `SELECT pg_backend_pid() AS pid, p.statement
         FROM (SELECT 1) one LEFT JOIN pg_prepared_statements p ON true`,
    );
    return {
      pid: rows[0].pid,
      prepared: rows.flatMap((row) => (row.statement ? [row.statement.replace(/\s+/g, ' ')] : [])),
    };
  }
  const accountReads = (texts: string[]) =>
    texts.filter((text) => /^SELECT .* FROM "account" t WHERE t\.key = \$1::int8/.test(text));

  it('prepares an entity read once, whatever the key, and answers from it', async () => {
    for (const accountKey of [...accountKeys, ...accountKeys]) {
      const { body } = await request(t.http)
        .get(`/rest/entity/account/${accountKey}`)
        .set('X-API-Key', key)
        .expect(200);
      expect(body.properties.key).toBe(accountKey);
    }
    expect(accountReads((await connection()).prepared)).toHaveLength(1);
  });

  it('leaves a FETCH query unprepared', async () => {
    const before = (await connection()).prepared;
    await postFetch(t, key, `FETCH account (name) WHERE name = 'Prepared One'`).expect(200);
    await postFetch(t, key, `FETCH account (name) WHERE name = 'Prepared Two'`).expect(200);
    expect((await connection()).prepared).toEqual(before);
  });

  it('keeps the connection, and what it prepared, when PostgreSQL cancels a statement', async () => {
    const before = await connection();
    expect(accountReads(before.prepared)).toHaveLength(1);
    await postFetch(t, key, HEAVY_FETCH).expect(503);
    const after = await connection();
    expect(after.pid).toBe(before.pid);
    expect(accountReads(after.prepared)).toHaveLength(1);
  });
});
