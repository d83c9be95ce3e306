import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import request from 'supertest';
import { QueryRunner } from 'typeorm';
import { binaryBody } from './helpers/binary-body';
import { EmbeddedPostgres, stopLeftoverServer } from '../src/database/embedded-postgres';
import { MIGRATIONS } from '../src/database/migrations';
import { parseInt8 } from '../src/database/pg-types';
import { cachePglite, installPglite } from '../src/database/pglite-package';
import { BUILT_SERVER, environmentWithout, runCli, runToExit } from './helpers/child-process';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { isAlive, postmasterPid, waitFor } from './helpers/postmaster';
import { steps } from './helpers/steps';
import { apiKeyFor, createTestApp, seedAdmin, TestApp } from './helpers/test-app';

/** The migrations that existed while Atrium's embedded database was PGlite. */
const PGLITE_ERA_MIGRATIONS = [
  'Init1795333343006',
  'DemoDomain1795334775838',
  'ServerSecret1795350000000',
  'Storage1795360786207',
  'OpenId1795362652215',
];

/** A table's rows, each value as PostgreSQL's text of it (or null). */
type Rows = Record<string, Record<string, string | null>[]>;

const execFileAsync = promisify(execFile);

/**
 * npm without the network, for the steps' installs of PGlite (the suite's own and the
 * CLI's): they take it from npm's cache, which cachePglite filled before them.
 */
const NPM_OFFLINE = { npm_config_offline: 'true' };

/**
 * Every row of every table (but TypeORM's own), in a stable order, each value as its
 * exact text: as JSON numbers, keys beyond 2^53 (another suite's, in the database the
 * server run shares) would be rounded, here and in the copy written to PGlite.
 */
async function snapshot(query: (sql: string) => Promise<{ rows: unknown[] }>): Promise<Rows> {
  const { rows: tables } = (await query(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'migrations'
      ORDER BY table_name`,
  )) as { rows: { name: string }[] };
  const rows: Rows = {};
  for (const { name } of tables) {
    const { rows: result } = (await query(
      `SELECT coalesce(json_agg(r ORDER BY r::text), '[]')::text AS rows
         FROM (SELECT (SELECT json_object_agg(key, value) FROM json_each_text(row_to_json(t))) AS r
                 FROM "${name}" t) texts`,
    )) as { rows: { rows: string }[] };
    rows[name] = JSON.parse(result[0].rows);
  }
  return rows;
}

/** The statements of the PGlite era's migrations, as they would run. */
async function pgliteEraStatements(): Promise<string[]> {
  const statements: string[] = [];
  const recorder = { query: async (sql: string) => void statements.push(sql) };
  for (const Migration of MIGRATIONS.filter((m) => PGLITE_ERA_MIGRATIONS.includes(m.name))) {
    await new Migration().up(recorder as QueryRunner);
  }
  return statements;
}

/**
 * The rows of the tables a PGlite-era database had, with the columns it had: later
 * migrations made the other tables and columns.
 */
async function ofPgliteEraTables(rows: Rows): Promise<Rows> {
  const columns = new Map<string, Set<string>>();
  for (const sql of await pgliteEraStatements()) {
    const created = /^CREATE TABLE "(\w+)" \((.*)\)$/s.exec(sql);
    const added = /^ALTER TABLE "(\w+)" ADD "(\w+)"/.exec(sql);
    if (created) {
      const names = [...created[2].matchAll(/(?:^|, )"(\w+)" [a-zA-Z"]/g)].map((m) => m[1]);
      columns.set(created[1], new Set(names));
    } else if (added) {
      columns.get(added[1])?.add(added[2]);
    }
  }
  return Object.fromEntries(
    Object.entries(rows)
      .filter(([name]) => columns.has(name))
      .map(([name, tableRows]) => [
        name,
        tableRows.map((row) =>
          Object.fromEntries(
            Object.entries(row as object).filter(([column]) => columns.get(name)!.has(column)),
          ),
        ),
      ]),
  );
}

/**
 * A DATA_DIR as Atrium wrote it while its embedded database was PGlite: PGlite's files,
 * the schema of that era's migrations, and a copy of a real data set (the demo data, a
 * user's API key, a stored file) taken from this suite's database.
 */
async function writePgliteDataDir(dataDir: string, rows: Rows): Promise<void> {
  const statements = await pgliteEraStatements();
  const migrations = MIGRATIONS.filter((m) => PGLITE_ERA_MIGRATIONS.includes(m.name));
  const fixture = join(dataDir, '..', 'fixture.json');
  await writeFile(
    fixture,
    JSON.stringify({
      statements,
      migrations: migrations.map(({ name }) => ({
        name,
        timestamp: Number(/\d+$/.exec(name)![0]),
      })),
      rows,
    }),
  );
  const writer = join(__dirname, 'helpers', 'write-pglite-database.js');
  const pglite = await installPglite(join(dataDir, '..', 'pglite'), {
    ...process.env,
    ...NPM_OFFLINE,
  });
  await execFileAsync(process.execPath, [writer, pglite, join(dataDir, 'pgdata'), fixture]);
}

describe('upgrading a DATA_DIR that holds a PGlite database', () => {
  let t: TestApp;
  let workDir: string;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let before: Rows;
  let apiKey: string;
  let fileId: number;
  const fileBytes = Buffer.concat([Buffer.from([0, 1, 2, 255, 0]), randomBytes(70_000)]);

  const step = steps();

  // PGlite into npm's cache: from the registry only when it is not there yet (.ci/run puts
  // it there first). The steps then run npm offline.
  beforeAll(() => cachePglite(), 120_000);

  beforeAll(async () => {
    t = await createTestApp({ STORAGE_DRIVER: 'db' });
    const admin = await seedAdmin(t);
    apiKey = await apiKeyFor(t, admin.user.key);
    const stored = await request(t.http)
      .post('/storage')
      .set('X-API-Key', apiKey)
      .attach('file', fileBytes, { filename: 'kept.bin' })
      .expect(201);
    fileId = stored.body.id;
    before = await ofPgliteEraTables(
      await snapshot((sql) => t.dataSource.query(sql).then((rows) => ({ rows }))),
    );
    await t.close();

    workDir = await mkdtemp(join(tmpdir(), 'atr-'));
    // Run by root, the database server runs as `postgres`, which must reach DATA_DIR.
    await chmod(workDir, 0o755);
    dataDir = join(workDir, 'data');
    await mkdir(dataDir);
    env = {
      ...environmentWithout('DATABASE_URL', 'TEST_DATABASE_URL'),
      ...NPM_OFFLINE,
      DATA_DIR: dataDir,
    };
    await writePgliteDataDir(dataDir, before);
  });
  afterAll(async () => {
    // Servers of a failed step would outlive the suite.
    await stopLeftoverServer(join(dataDir, '.convert'));
    await stopLeftoverServer(dataDir);
    await rm(workDir, { recursive: true, force: true });
  });

  step('refuses to start the server on it, naming the command that converts it', async () => {
    const result = await runToExit(BUILT_SERVER, [], {
      env: { ...env, LOG_LEVEL: 'info' },
      cwd: workDir,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `${join(dataDir, 'pgdata')} holds a PGlite database, the embedded database of earlier versions of Atrium. ` +
        'Convert it with \\"npm run cli -- db:convert-pglite\\"',
    );
    expect(existsSync(join(dataDir, 'pgdata-pglite'))).toBe(false);
  });

  step('converts it, after removing what an interrupted conversion left', async () => {
    // A conversion killed while it copied: its new server still runs, its lock is stale.
    const staging = join(dataDir, '.convert');
    await EmbeddedPostgres.start(staging, { maxConnections: 4 });
    const orphan = postmasterPid(staging)!;
    await rm(join(staging, 'atrium.lock'));

    const result = await runCli(['db:convert-pglite'], { env, cwd: workDir });
    const rowCount = Object.values(before).reduce((sum, rows) => sum + rows.length, 0);
    expect(result).toMatchObject({
      code: 0,
      stdout: `Converted ${rowCount} rows of ${Object.keys(before).length} tables into the embedded PostgreSQL server.\n`,
    });
    expect(existsSync(join(dataDir, 'pgdata-pglite', 'PG_VERSION'))).toBe(true);
    expect(existsSync(staging)).toBe(false);
    await waitFor(() => !isAlive(orphan));

    const server = await EmbeddedPostgres.start(dataDir, { maxConnections: 10 });
    try {
      const client = new Client({ connectionString: server.url });
      await client.connect();
      try {
        expect(await snapshot((sql) => client.query(sql))).toEqual(before);
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
  });

  step(
    'serves the converted data: the same password, API key and file; new keys after the old',
    async () => {
      // The app on the converted database, as `npm start` would run it.
      const server = await EmbeddedPostgres.start(dataDir, { maxConnections: 10 });
      const converted = await createTestApp({}, [], server.url).catch(async (error) => {
        await server.stop();
        throw error;
      });
      try {
        await request(converted.http)
          .post('/auth')
          .send({ user: 'admin', password: TEST_ADMIN_PASSWORD })
          .expect(200);
        const file = await request(converted.http)
          .get(`/storage?id=${fileId}`)
          .set('X-API-Key', apiKey)
          .buffer(true)
          .parse(binaryBody)
          .expect(200);
        expect(Buffer.compare(file.body as Buffer, fileBytes)).toBe(0);
        // PGlite had given 3 keys past the highest one left (write-pglite-database.js).
        const highest = before.account
          .map((row) => BigInt(row.key!))
          .reduce((max, key) => (key > max ? key : max));
        const { body } = await request(converted.http)
          .post('/rest/entity/account')
          .set('X-API-Key', apiKey)
          .send({ properties: { name: 'After the upgrade' } })
          .expect(200);
        // As the API answers any bigint: a number, or beyond 2^53 its exact text.
        expect(body.key).toBe(parseInt8(String(highest + 4n)));
      } finally {
        await converted.close();
        await server.stop();
      }
    },
  );

  step('refuses to convert again: what it finds is no longer PGlite; nothing changes', async () => {
    const again = await runCli(['db:convert-pglite'], { env, cwd: workDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `atrium: There is no PGlite database in ${join(dataDir, 'pgdata')} to convert\n`,
    );
    expect(existsSync(join(dataDir, 'pgdata-pglite', 'PG_VERSION'))).toBe(true);
    const server = await EmbeddedPostgres.start(dataDir, { maxConnections: 10 });
    try {
      const client = new Client({ connectionString: server.url });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT name FROM account WHERE name = 'After the upgrade'`,
        );
        expect(rows).toHaveLength(1);
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
  });
});
