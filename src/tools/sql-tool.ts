import { DynamicModule, Injectable, Module, Type } from '@nestjs/common';
import { ModuleRef, NestFactory } from '@nestjs/core';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { appEntities } from '../app.module';
import { DatabaseModule } from '../database/database.module';
import { GENERATE_SQL } from '../database/generate-sql';
import { formatSnapshot, RECORDING_SQL, recordCalls, RecordingSql } from '../database/sql-snapshot';
import { newDatabaseOn, onThrowawayDatabase } from '../database/throwaway-database';
import { Transactions } from '../database/transactions.service';
import { ModelModule } from '../model/model.module';
import { AccessScope } from '../access/access.scope';
import { scenarioSnapshots } from './sql-scenarios';
import {
  crossingError,
  describeTenancy,
  ORGANIZATION_TABLES,
  tablesOf,
  tenancyOf,
  TenancyContext,
  tenancyProblem,
} from './sql-tenancy';

/**
 * `npm run sql:generate` and `npm run sql:check`: the statements each repository sends,
 * as calls of its `@GenerateSql` methods send them on a throwaway database where the
 * migrations ran, in src/queries/<repository file>.sql. `generate` writes the files;
 * `check` fails when one would change, or names no repository any more (CI's drift
 * check), so a change to a repository's SQL shows in review as a diff of its file. Both
 * fail a statement on an organization-owned table whose call binds no tenant, or takes
 * neither a tenant nor a named system scope (sql-tenancy.ts).
 */
const SRC = resolve(__dirname, '..');
const QUERIES = join(SRC, 'queries');

/** What the repositories' pass found: their snapshots, and what the scenarios' check needs. */
interface RepositorySnapshots extends TenancyContext {
  snapshots: Map<string, string>;
}

interface RepositoryFile {
  path: string;
  classes: Type[];
}

/**
 * Makes repositories in the tool module, where Sql is RecordingSql (the database module
 * has instances of its own, ServerSecretRepository among them, that send through Sql).
 */
@Injectable()
class Repositories {
  constructor(private readonly moduleRef: ModuleRef) {}

  make(type: Type): Promise<object> {
    return this.moduleRef.create(type);
  }
}

@Module({})
class SqlToolModule {
  static forRoot(databaseUrl: string): DynamicModule {
    return {
      module: SqlToolModule,
      imports: [DatabaseModule.forCommands(databaseUrl, 2, appEntities()), ModelModule],
      providers: [...RECORDING_SQL, Repositories],
    };
  }
}

async function main([command]: string[]): Promise<number> {
  if (command !== 'generate' && command !== 'check') {
    console.error('Usage: sql-tool generate | check');
    return 2;
  }
  const files = await repositoryFiles(SRC);
  const snapshots = await onThrowawayDatabase(async (url) => {
    const repositories = await snapshotsOf(url, files);
    // The requests' statements, on a database of their own: the repositories' calls
    // empty every table.
    const scenarios = await scenarioSnapshots(await newDatabaseOn(url, 'scenarios'), repositories);
    const { snapshots } = repositories;
    return new Map([...snapshots, ...scenarios]);
  });
  if (command === 'generate') {
    await rm(QUERIES, { recursive: true, force: true });
    await mkdir(QUERIES, { recursive: true });
    for (const [name, text] of snapshots) await writeFile(join(QUERIES, name), text);
    console.log(`Wrote ${snapshots.size} files in ${relative(process.cwd(), QUERIES)}`);
    return 0;
  }
  const written = new Set(await readdir(QUERIES).catch(() => []));
  const stale: string[] = [];
  for (const [name, text] of snapshots) {
    const current = written.has(name) ? await readFile(join(QUERIES, name), 'utf8') : undefined;
    if (current !== text) stale.push(`${name} ${current === undefined ? 'is missing' : 'differs'}`);
    written.delete(name);
  }
  stale.push(...[...written].map((name) => `${name} names no repository`));
  if (stale.length === 0) {
    console.log(`The SQL snapshots agree: ${snapshots.size} files.`);
    return 0;
  }
  console.error(
    `The SQL snapshots in ${relative(process.cwd(), QUERIES)} are out of date ` +
      `(npm run sql:generate writes them):\n${stale.map((line) => `  ${line}`).join('\n')}`,
  );
  return 1;
}

/**
 * Each repository file's snapshot text, by snapshot file name; and the statements of calls
 * under a system scope, with its purpose (those a request's statements may hold).
 */
async function snapshotsOf(url: string, files: RepositoryFile[]): Promise<RepositorySnapshots> {
  const context = await NestFactory.createApplicationContext(SqlToolModule.forRoot(url), {
    logger: false,
    abortOnError: false,
  });
  try {
    const repositories = context.get(Repositories);
    const sql = context.get(RecordingSql);
    const transactions = context.get(Transactions);
    const owned = await organizationTables(sql);
    const snapshots = new Map<string, string>();
    const systemTexts = new Map<string, string>();
    const problems: string[] = [];
    for (const { path, classes } of files) {
      const calls = [];
      for (const type of classes) {
        calls.push(...(await recordCalls(await repositories.make(type), sql, transactions)));
      }
      for (const call of calls) {
        const tenancy = tenancyOf(call.params);
        for (const statement of call.statements) {
          const problem = tenancyProblem(statement, tenancy, owned);
          if (problem) problems.push(`${call.label} ${problem}`);
        }
        const touches = call.statements.some(({ text }) =>
          tablesOf(text).some((t) => owned.has(t)),
        );
        if (touches && tenancy.kind !== 'none') call.note = `tenancy: ${describeTenancy(tenancy)}`;
        if (tenancy.kind === 'system') {
          for (const { text } of call.statements) systemTexts.set(text, tenancy.purpose);
        }
      }
      const source = relative(resolve(SRC, '..'), path);
      const text = formatSnapshot(source, calls, describeArgument);
      snapshots.set(basename(path).replace(/\.ts$/, '.sql'), text);
    }
    if (problems.length > 0) throw crossingError(problems);
    return { snapshots, systemTexts, owned };
  } finally {
    await context.close();
  }
}

/** The tables of the migrated schema that carry `id_organization`: organization-owned. */
async function organizationTables(sql: RecordingSql): Promise<Set<string>> {
  const rows = await sql.rows<{ name: string }>(ORGANIZATION_TABLES);
  sql.statements = [];
  return new Set(rows.map((row) => row.name));
}

/** A tenant, a system scope or an access scope, as the snapshot names it. */
function describeArgument(value: unknown): string | undefined {
  const tenancy = tenancyOf([value]);
  if (tenancy.kind === 'none') return undefined;
  if (value instanceof AccessScope) return undefined; // <AccessScope>, as before
  return tenancy.kind === 'tenant'
    ? `<tenant ${tenancy.organizationKey}>`
    : `<system scope ${tenancy.purpose}>`;
}

/**
 * The *.repository.ts files under `dir` with classes of `@GenerateSql` methods (one whose
 * SQL a library writes, login_limit's, has none), and those classes.
 */
async function repositoryFiles(dir: string): Promise<RepositoryFile[]> {
  const entries = await readdir(dir, { recursive: true });
  const paths = entries.filter((entry) => entry.endsWith('.repository.ts')).sort();
  return paths
    .map((entry) => {
      const path = join(dir, entry);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exported = Object.values(require(path) as Record<string, unknown>);
      return { path, classes: exported.filter(isSnapshotted) };
    })
    .filter((file) => file.classes.length > 0);
}

function isSnapshotted(value: unknown): value is Type {
  if (typeof value !== 'function') return false;
  const prototype = value.prototype as object;
  return Object.getOwnPropertyNames(prototype).some((name) => {
    const member: unknown = Object.getOwnPropertyDescriptor(prototype, name)!.value;
    return typeof member === 'function' && Reflect.hasMetadata(GENERATE_SQL, member);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`The SQL snapshot tool failed: ${error.stack ?? error.message}`);
    process.exit(1);
  },
);
