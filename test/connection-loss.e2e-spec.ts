import { Sql } from '../src/database/sql.service';
import { DeafeningProxy } from './helpers/deafening-proxy';
import { waitFor } from './helpers/postmaster';
import { createTestApp, TestApp } from './helpers/test-app';

/**
 * A connection lost under a statement sent outside a transaction: the statement fails,
 * and the process goes on (pg also emits the loss as an 'error' event, which unheard would
 * end it).
 */
describe('a pooled connection lost under a statement', () => {
  let proxy: DeafeningProxy;
  let t: TestApp;

  beforeAll(async () => {
    proxy = await DeafeningProxy.start(process.env.ATRIUM_TEST_DATABASE_URL!);
    t = await createTestApp({}, [], proxy.url);
  });
  afterAll(async () => {
    await proxy.close();
    await t.close();
  });

  it('fails the statement, and nothing else', async () => {
    const slow = t.app.get(Sql).row(`SELECT pg_sleep(5) AS "connectionLoss"`);
    // The link goes as the statement runs.
    await waitFor(async () => {
      const running = await t.dataSource.query(
        `SELECT 1 FROM pg_stat_activity WHERE query LIKE '%pg_sleep(5) AS "connectionLoss"%'
            AND state = 'active' AND pid <> pg_backend_pid()`,
      );
      return running.length > 0;
    });
    await proxy.close();
    await expect(slow).rejects.toThrow(/Connection terminated unexpectedly/);
  });
});
