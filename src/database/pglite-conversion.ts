import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source.options';
import { lockDataDir, unlockDataDir } from './data-dir.lock';
import {
  EmbeddedPostgres,
  embeddedClusterDir,
  holdsPgliteDatabase,
  stopLeftoverServer,
} from './embedded-postgres';
import { MIGRATIONS } from './migrations';
import { installPglite, PGLITE_PACKAGE, PGLITE_VERSION } from './pglite-package';
import { quoteIdentifier } from './sql';

/** Rows per round trip: a row of `file_chunk` is a mebibyte. */
const BATCH_ROWS = 50;
/** Where the new server is built (a DATA_DIR of its own), moved into place when done. */
const STAGING_DIR = '.convert';

/** The part of PGlite's API the conversion uses (PGlite is not a dependency of Atrium). */
interface Pglite {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  transaction<T>(work: (tx: Pick<Pglite, 'query'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

type Migration = (typeof MIGRATIONS)[number];

export interface ConversionSummary {
  tables: number;
  rows: number;
  /** Where the PGlite files were moved to; delete them once the server runs. */
  backup: string;
}

/** The conversion cannot start, or the old database is not one it can convert. */
export class ConversionError extends Error {}

/**
 * Upgrading from PGlite (`npm run cli -- db:convert-pglite`). A new embedded server is
 * built beside the PGlite files, in DATA_DIR/.convert, with the migrations the old
 * database had; every row is copied in one transaction, as JSON (exact: decimals,
 * date-times and bytes keep their text form). Only then are the PGlite files moved to
 * DATA_DIR/pgdata-pglite and the new cluster to DATA_DIR/pgdata: until that last step,
 * an interrupted or failed conversion leaves DATA_DIR/pgdata as it was.
 */
export async function convertPgliteDataDir(
  dataDir: string,
  report: (line: string) => void,
): Promise<ConversionSummary> {
  const root = resolve(dataDir);
  const clusterDir = embeddedClusterDir(root);
  const backup = `${clusterDir}-pglite`;
  const staging = join(root, STAGING_DIR);
  if (!(await holdsPgliteDatabase(root))) {
    throw new ConversionError(`There is no PGlite database in ${clusterDir} to convert`);
  }
  if (existsSync(backup)) {
    throw new ConversionError(`${backup} exists: an earlier conversion's copy; move it away first`);
  }
  await lockDataDir(root);
  const work = await mkdtemp(join(tmpdir(), 'atrium-pglite-'));
  try {
    await discard(staging);
    report(`Installing ${PGLITE_PACKAGE}@${PGLITE_VERSION} to read the old files`);
    const pglite = await openPglite(await installPglite(work), clusterDir);
    let copied: { tables: number; rows: number };
    try {
      copied = await copyIntoNewServer(pglite, staging, report);
    } finally {
      await pglite.close();
    }
    await rename(clusterDir, backup);
    await rename(embeddedClusterDir(staging), clusterDir);
    await rm(staging, { recursive: true, force: true });
    return { ...copied, backup };
  } catch (error) {
    await discard(staging).catch(() => undefined);
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
    await unlockDataDir(root);
  }
}

/** An earlier, interrupted conversion's new server: stopped if it still runs, removed. */
async function discard(staging: string): Promise<void> {
  await stopLeftoverServer(staging);
  await rm(staging, { recursive: true, force: true });
}

async function openPglite(entry: string, directory: string): Promise<Pglite> {
  const { PGlite } = (await import(entry)) as {
    PGlite: { create(directory: string): Promise<Pglite> };
  };
  return PGlite.create(directory);
}

async function copyIntoNewServer(
  source: Pglite,
  staging: string,
  report: (line: string) => void,
): Promise<{ tables: number; rows: number }> {
  const applied = await appliedMigrations(source);
  const server = await EmbeddedPostgres.start(staging, { maxConnections: 4 });
  try {
    await migrate(server.url, applied);
    return await copyRows(source, server.url, report);
  } finally {
    await server.stop();
  }
}

/** The old database's migrations, which must all be ones this version knows. */
async function appliedMigrations(source: Pglite): Promise<Migration[]> {
  const { rows } = await source.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
  return rows.map(({ name }) => {
    const migration = MIGRATIONS.find((known) => known.name === name);
    if (!migration)
      throw new ConversionError(`The PGlite database has an unknown migration ${name}`);
    return migration;
  });
}

/** The schema the old database had, made by the same migrations. */
async function migrate(url: string, migrations: Migration[]): Promise<void> {
  const dataSource = new DataSource({
    ...buildDataSourceOptions({ url, poolSize: 1 }),
    migrations,
  });
  await dataSource.initialize();
  await dataSource.runMigrations();
  await dataSource.destroy();
}

async function copyRows(
  source: Pglite,
  url: string,
  report: (line: string) => void,
): Promise<{ tables: number; rows: number }> {
  const { rows: tables } = await source.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'migrations'
      ORDER BY table_name`,
  );
  const target = new Client({ connectionString: url });
  await target.connect();
  let total = 0;
  try {
    await target.query('BEGIN');
    // Rows arrive table by table, not in the order of their foreign keys.
    await target.query('SET LOCAL session_replication_role = replica');
    for (const { name } of tables) {
      const copied = await copyTable(source, target, name);
      report(`${name}: ${copied} rows`);
      total += copied;
    }
    await continueIdentities(source, target);
    await target.query('COMMIT');
  } catch (error) {
    await target.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await target.end();
  }
  return { tables: tables.length, rows: total };
}

async function copyTable(source: Pglite, target: Client, table: string): Promise<number> {
  const quoted = quoteIdentifier(table);
  return source.transaction(async (tx) => {
    await tx.query(
      `DECLARE copy_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS row FROM ${quoted} t`,
    );
    let copied = 0;
    for (;;) {
      const { rows } = await tx.query<{ row: string }>(`FETCH ${BATCH_ROWS} FROM copy_rows`);
      if (rows.length === 0) return copied;
      await target.query(
        `INSERT INTO ${quoted} OVERRIDING SYSTEM VALUE
         SELECT * FROM json_populate_recordset(NULL::${quoted}, $1::json)`,
        [`[${rows.map(({ row }) => row).join(',')}]`],
      );
      copied += rows.length;
    }
  });
}

/**
 * Each identity column goes on where PGlite's would have: after the last value it gave
 * (keys of deleted rows are not given again), or after the highest copied one.
 */
async function continueIdentities(source: Pglite, target: Client): Promise<void> {
  const identities = `SELECT pg_get_serial_sequence(quote_ident(table_name), column_name) AS sequence,
                             quote_ident(table_name) AS "table", quote_ident(column_name) AS "column"
                        FROM information_schema.columns
                       WHERE table_schema = 'public' AND is_identity = 'YES'`;
  const { rows } = await source.query<{ sequence: string; table: string; column: string }>(
    identities,
  );
  for (const { sequence, table, column } of rows) {
    const [{ next }] = (
      await source.query<{ next: string }>(
        `SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END AS next FROM ${sequence}`,
      )
    ).rows;
    await target.query(
      `SELECT setval($1, greatest($2::bigint, coalesce(max(${column}), 0) + 1), false) FROM ${table}`,
      [sequence, next],
    );
  }
}
