import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source.options';
import { MIGRATIONS } from '../src/database/migrations';
import { as } from './helpers/access';
import { withDatabase } from './helpers/suite-database';
import { apiKeyFor, createTestApp, postFetch, TestApp } from './helpers/test-app';

/** The migration that brought roles; every one before it made the previous schema. */
const ACCESS_CONTROL = 'AccessControl1795547046060';

/**
 * A database of the schema before access control, with an organization's data in it,
 * upgraded by starting the server on it: every user keeps the access it had.
 */
describe('upgrading to access control', () => {
  const serverUrl = process.env.ATRIUM_TEST_SERVER_URL ?? process.env.TEST_DATABASE_URL!;
  const database = `atrium_upgrade_${randomBytes(6).toString('hex')}`;
  const url = withDatabase(serverUrl, database);
  let t: TestApp;
  const keys = { admin: 1, user: 2, colleague: 3, account: 1, invoice: 1, line: 1, file: 1 };

  const onServer = async (sql: string) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    await onServer(`CREATE DATABASE ${database}`);
    const previous = new DataSource({
      ...buildDataSourceOptions({ url, poolSize: 1 }),
      migrations: MIGRATIONS.slice(
        0,
        MIGRATIONS.findIndex((m) => m.name === ACCESS_CONTROL),
      ),
      migrationsRun: false,
    });
    await previous.initialize();
    try {
      await previous.runMigrations();
      // An organization as the previous version left it: an admin, two users, an account
      // with a credit limit, an invoice whose line another user added, a stored file.
      await previous.transaction(async (tx) => {
        const owner = `1, 1, ${keys.admin}`;
        await tx.query(
          `INSERT INTO organization (key, name, id_organization, id_business_unit, id_user)
           VALUES (1, 'Upgraded', ${owner})`,
        );
        await tx.query(
          `INSERT INTO business_unit (key, name, id_organization, id_business_unit, id_user)
           VALUES (1, 'Main', ${owner})`,
        );
        await tx.query(
          `INSERT INTO "user" (key, user_name, full_name, is_admin, id_organization, id_business_unit, id_user)
           VALUES (1, 'up-admin', 'Admin', true, ${owner}), (2, 'up-user', 'User', false, ${owner}),
                  (3, 'up-colleague', 'Colleague', false, ${owner})`,
        );
        await tx.query(
          `INSERT INTO account (key, name, credit_limit, id_organization, id_business_unit, id_user)
           VALUES (1, 'Kept', 500, ${owner})`,
        );
        await tx.query(
          `INSERT INTO invoice (key, id_account, id_organization, id_business_unit, id_user)
           VALUES (1, 1, ${owner})`,
        );
        await tx.query(
          `INSERT INTO invoice_line (key, id_invoice, quantity, unit_price, amount,
                                     id_organization, id_business_unit, id_user)
           VALUES (1, 1, 1, 2, 2, 1, 1, ${keys.colleague})`,
        );
        await tx.query(
          `INSERT INTO file (key, name, content_type, latest_version, id_organization, id_business_unit, id_user)
           VALUES (1, 'a.txt', 'text/plain', 1, ${owner})`,
        );
        await tx.query(
          `INSERT INTO file_version (id_file, version, name, content_type, size, sha256, driver,
                                     id_organization, id_business_unit, id_user)
           VALUES (1, 1, 'a.txt', 'text/plain', 0, repeat('0', 64), 'db', 1, 1, ${keys.colleague})`,
        );
        for (const table of [
          'organization',
          'business_unit',
          'user',
          'account',
          'invoice',
          'invoice_line',
          'file',
        ]) {
          await tx.query(`SELECT setval(pg_get_serial_sequence('"${table}"', 'key'), 10)`);
        }
      });
    } finally {
      await previous.destroy();
    }
    t = await createTestApp({ DEMO_DATA: 'false' }, [], url);
  });
  afterAll(async () => {
    await t?.close();
    await onServer(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it('gives every user who is not an administrator role member, and nothing else', async () => {
    const holders = await t.dataSource.query(
      `SELECT u.user_name AS user, r.name AS role FROM user_role ur
         JOIN "user" u ON u.key = ur.id_parent_user JOIN role r ON r.key = ur.id_role
        ORDER BY u.user_name`,
    );
    expect(holders).toEqual([
      { user: 'up-colleague', role: 'member' },
      { user: 'up-user', role: 'member' },
    ]);
  });

  it('keeps what a user could read and change: every record, the secured property included', async () => {
    const user = await apiKeyFor(t, keys.user);
    const read = await as(t, user).get(`/rest/entity/account/${keys.account}`).expect(200);
    expect(read.body.properties.credit_limit).toBe('500.00');
    await as(t, user)
      .post(`/rest/entity/account/${keys.account}`, { properties: { credit_limit: '600.00' } })
      .expect(200);
    const invoice = await as(t, user).get(`/rest/entity/invoice/${keys.invoice}`).expect(200);
    expect(invoice.body.children.invoice_invoice_line).toHaveLength(1);
    const fetched = await postFetch(t, user, 'FETCH account (name, credit_limit)').expect(200);
    expect(fetched.body).toEqual([{ name: 'Kept', credit_limit: '600.00' }]);
    await as(t, user)
      .post('/rest/entity/account', { properties: { name: 'New' } })
      .expect(200);
    const privileges = await as(t, user).get('/rest/metadata/privileges').expect(200);
    expect(privileges.body.entities.invoice).toMatchObject({
      create: 'organization',
      read: 'organization',
      write: 'organization',
      delete: 'organization',
    });
  });

  it('gives children their parent’s owner, so the parent’s depth covers them', async () => {
    const [line] = await t.dataSource.query(`SELECT id_user FROM invoice_line WHERE key = 1`);
    const [version] = await t.dataSource.query(
      `SELECT id_user FROM file_version WHERE id_file = 1`,
    );
    expect(line.id_user).toBe(keys.admin);
    expect(version.id_user).toBe(keys.admin);
  });
});
