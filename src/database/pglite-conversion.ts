import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source.options';
import { lockDataDir, unlockDataDir } from './data-dir.lock';
import { EmbeddedPostgres } from './embedded-postgres';
import { MIGRATIONS } from './migrations';
import { quoteIdentifier } from './sql';

const execFileAsync = promisify(execFile);

/** The PGlite that wrote the data files of Atrium before 0.2 (PostgreSQL 18 in WASM). */
export const PGLITE_PACKAGE = '@electric-sql/pglite';
export const PGLITE_VERSION = '0.5.14';
/** Rows per round trip: a row of `file_chunk` is a mebibyte. */
const BATCH_ROWS = 50;

/** The part of PGlite's API the conversion uses (PGlite is not a dependency of Atrium). */
interface Pglite {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  transaction<T>(work: (tx: Pick<Pglite, 'query'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface ConversionSummary {
  tables: number;
  rows: number;
  /** Where the PGlite files were moved to; delete them once the server runs. */
  backup: string;
}

/**
 * Upgrading from PGlite (`npm run cli -- db:convert-pglite`): the PGlite database in
 * DATA_DIR/pgdata is moved to DATA_DIR/pgdata-pglite, a new embedded PostgreSQL server is
 * made in DATA_DIR/pgdata with the migrations the old database had, and every row is
 * copied, in one transaction, as JSON (exact: decimals, date-times and bytes keep their
 * text form). Any failure puts the PGlite files back.
 */
export async function convertPgliteDataDir(
  dataDir: string,
  report: (line: string) => void,
): Promise<ConversionSummary> {
  const root = resolve(dataDir);
  const clusterDir = join(root, 'pgdata');
  const backup = join(root, 'pgdata-pglite');
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    throw new ConversionError(`There is no database in ${clusterDir} to convert`);
  }
  if (existsSync(backup)) {
    throw new ConversionError(`${backup} exists: an earlier conversion's copy; move it away first`);
  }
  await lockDataDir(root);
  try {
    const pglite = await loadPglite(report);
    await rename(clusterDir, backup);
    try {
      return await copyIntoNewServer(pglite, backup, root, report);
    } catch (error) {
      await rm(clusterDir, { recursive: true, force: true });
      await rename(backup, clusterDir);
      throw error;
    }
  } finally {
    await unlockDataDir(root);
  }
}

/** The conversion cannot start, or the old database is not one it can convert. */
export class ConversionError extends Error {}

async function copyIntoNewServer(
  openPglite: (directory: string) => Promise<Pglite>,
  pgliteDir: string,
  root: string,
  report: (line: string) => void,
): Promise<ConversionSummary> {
  const source = await openPglite(pgliteDir).catch((error: Error) => {
    throw new ConversionError(`${pgliteDir} is not a PGlite database: ${error.message}`);
  });
  let server: EmbeddedPostgres | undefined;
  try {
    const applied = await appliedMigrations(source);
    server = await EmbeddedPostgres.start(root, { maxConnections: 4 });
    await migrate(server.url, applied);
    const copied = await copyRows(source, server.url, report);
    return { ...copied, backup: pgliteDir };
  } finally {
    await source.close();
    await server?.stop();
  }
}

/** The old database's migrations, which must all be ones this version knows. */
async function appliedMigrations(source: Pglite): Promise<(typeof MIGRATIONS)[number][]> {
  const { rows } = await source.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
  return rows.map(({ name }) => {
    const migration = MIGRATIONS.find((known) => known.name === name);
    if (!migration)
      throw new ConversionError(`The PGlite database has an unknown migration ${name}`);
    return migration;
  });
}

/** The schema the old database had, made by the same migrations. */
async function migrate(url: string, migrations: (typeof MIGRATIONS)[number][]): Promise<void> {
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
    await restartIdentities(target);
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

/** Identity columns continue after the highest copied value. */
async function restartIdentities(target: Client): Promise<void> {
  const { rows } = await target.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND is_identity = 'YES'`,
  );
  for (const { table_name: table, column_name: column } of rows) {
    const [quotedTable, quotedColumn] = [quoteIdentifier(table), quoteIdentifier(column)];
    await target.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(${quotedColumn}), 0) + 1, false)
         FROM ${quotedTable}`,
      [quotedTable, column],
    );
  }
}

/**
 * PGlite itself, to read its files: installed once from the npm registry into a folder
 * of the system's temporary directory, since Atrium no longer depends on it.
 */
async function loadPglite(
  report: (line: string) => void,
): Promise<(directory: string) => Promise<Pglite>> {
  const entry = await installPglite(report);
  const { PGlite } = (await import(entry)) as {
    PGlite: { create(directory: string): Promise<Pglite> };
  };
  return (directory) => PGlite.create(directory);
}

/** The path of PGlite's CommonJS entry, installing the package first when it is missing. */
export async function installPglite(report: (line: string) => void = () => {}): Promise<string> {
  const prefix = join(tmpdir(), `atrium-pglite-${PGLITE_VERSION}`);
  // The entry of this pinned version (its package.json "exports", condition "require").
  const entry = join(prefix, 'node_modules', PGLITE_PACKAGE, 'dist', 'index.cjs');
  if (existsSync(entry)) return entry;
  report(`Installing ${PGLITE_PACKAGE}@${PGLITE_VERSION} into ${prefix} to read the old files`);
  await mkdir(prefix, { recursive: true });
  const npm = process.env.npm_execpath;
  const [program, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  await execFileAsync(program, [
    ...args,
    'install',
    '--prefix',
    prefix,
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    `${PGLITE_PACKAGE}@${PGLITE_VERSION}`,
  ]);
  return entry;
}
