import { INestApplicationContext, Injectable, Provider } from '@nestjs/common';
import { AbstractLogger, DataSource, LogLevel, LogMessage } from 'typeorm';
import { GENERATE_SQL, IN_TRANSACTION, SqlSnapshotCall } from './generate-sql';
import { Sql } from './sql.service';
import { StatementResult } from './statements';
import { Transaction } from './transaction';
import { Transactions } from './transactions.service';

/** The Sql the snapshot tool hands the repositories: it notes each statement sent. */
@Injectable()
export class RecordingSql extends Sql {
  statements: SentStatement[] = [];

  protected override send<T>(
    text: string,
    values: unknown[],
    tx?: Transaction,
  ): Promise<StatementResult<T>> {
    this.statements.push({ text, values });
    return super.send<T>(text, values, tx);
  }
}

/** A statement as sent: its text and its values. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/** The providers that put RecordingSql in Sql's place. */
export const RECORDING_SQL: Provider[] = [
  RecordingSql,
  { provide: Sql, useExisting: RecordingSql },
];

/** One call of a repository method and what it sent. */
export interface RecordedCall {
  label: string;
  params: unknown[];
  statements: SentStatement[];
  /** What the snapshot says of the call besides (its tenancy). */
  note?: string;
}

const OWNER = 'id_organization, id_business_unit, id_user';
const SEED = [
  `INSERT INTO organization (name, ${OWNER}) VALUES ('Snapshot', 1, 1, 1)`,
  `INSERT INTO business_unit (name, ${OWNER}) VALUES ('Main', 1, 1, 1)`,
  `INSERT INTO "user" (user_name, full_name, is_admin, ${OWNER}) VALUES ('admin', 'Admin', true, 1, 1, 1)`,
  `INSERT INTO role (name, ${OWNER}) VALUES ('reader', 1, 1, 1)`,
  `INSERT INTO user_role (id_parent_user, id_role, ${OWNER}) VALUES (1, 1, 1, 1, 1)`,
];

/**
 * Every row a call starts from: an organization (key 1) with its unit `Main`, its
 * administrator `admin` and a role `reader`, which the administrator holds. Everything
 * else is emptied and the keys start again at 1, so every run sends the same.
 */
async function resetDatabase(sql: RecordingSql, transactions: Transactions): Promise<void> {
  const tables = await sql.rows<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables
      WHERE schemaname = 'public' AND tablename <> 'migrations' ORDER BY tablename`,
  );
  await sql.run(`TRUNCATE ${tables.map((t) => t.name).join(', ')} RESTART IDENTITY CASCADE`);
  // Each the owner of the others: organization 1, unit 1, user 1, checked at commit.
  await transactions.run(async (tx) => {
    for (const insert of SEED) await sql.run(insert, [], tx);
  });
}

/**
 * Calls each `@GenerateSql` method of `repository` with the arguments its marks give,
 * each from the same rows (resetDatabase), in a transaction when an argument asks for
 * one; and what each sent. A call that fails, or sends nothing, fails the snapshot: every
 * statement in it has run on the migrated schema.
 */
export async function recordCalls(
  repository: object,
  sql: RecordingSql,
  transactions: Transactions,
): Promise<RecordedCall[]> {
  const prototype = Object.getPrototypeOf(repository) as object;
  const recorded: RecordedCall[] = [];
  for (const name of Object.getOwnPropertyNames(prototype).sort()) {
    const method: unknown = Object.getOwnPropertyDescriptor(prototype, name)!.value;
    if (typeof method !== 'function') continue;
    const calls = Reflect.getMetadata(GENERATE_SQL, method) as SqlSnapshotCall[] | undefined;
    for (const call of calls ?? []) {
      const label = `${repository.constructor.name}.${name}${call.name ? ` (${call.name})` : ''}`;
      await resetDatabase(sql, transactions);
      sql.statements = [];
      const run = (tx?: Transaction) =>
        (method as (...args: unknown[]) => Promise<unknown>).apply(
          repository,
          call.params.map((param) => (param === IN_TRANSACTION ? tx : param)),
        );
      try {
        await (call.params.includes(IN_TRANSACTION) ? transactions.run(run) : run());
      } catch (error) {
        throw new Error(`${label} failed: ${(error as Error).message}`);
      }
      // None at all: the repository sent them by another way than Sql, unrecorded.
      if (sql.statements.length === 0) throw new Error(`${label} sent no statement through Sql`);
      recorded.push({ label, params: call.params, statements: sql.statements });
      sql.statements = [];
    }
  }
  return recorded;
}

/**
 * The snapshot file of one repository: each call, its arguments (as `describe` words the
 * ones it knows, a tenant say), its note, and its statements.
 */
export function formatSnapshot(
  source: string,
  calls: RecordedCall[],
  describe: (value: unknown) => string | undefined = () => undefined,
): string {
  const sections = calls.map(({ label, params, statements, note }) =>
    [
      `-- ${label}`,
      `-- arguments: ${params.map((value) => describe(value) ?? describeValue(value)).join(', ')}`,
      ...(note ? [`-- ${note}`] : []),
      ...statements.map(({ text }) => `${dedent(text)};`),
    ].join('\n'),
  );
  return [`-- The SQL of ${source}: written by npm run sql:generate, checked by CI.`, ...sections]
    .join('\n\n')
    .concat('\n');
}

/**
 * A statement without the indentation of the code it was written in (or spliced from):
 * its first line as it starts, the others two spaces in.
 */
export function dedent(text: string): string {
  const [first, ...rest] = text.trim().split('\n');
  return [first, ...rest.map((line) => `  ${line.trim()}`)].join('\n');
}

function describeValue(value: unknown): string {
  if (value === IN_TRANSACTION) return '<transaction>';
  if (value === undefined) return 'undefined';
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  if (value instanceof Date) return value.toISOString();
  const { constructor } = typeof value === 'object' && value !== null ? value : {};
  if (constructor && constructor !== Object && constructor !== Array) {
    return `<${constructor.name}>`;
  }
  return JSON.stringify(value);
}

/**
 * Every statement an app's data source sends while recording: the entity store's and
 * FETCH's too, which go past Sql (the data source's logger sees each; statements.ts).
 */
export class DataSourceRecorder extends AbstractLogger {
  private statements?: SentStatement[];

  private constructor(
    private readonly dataSource: DataSource,
    private readonly previous: DataSource['logger'],
  ) {
    super();
  }

  /** Put in the place of the app's data source's logger until `detach`. */
  static attach(app: INestApplicationContext): DataSourceRecorder {
    const dataSource = app.get(DataSource);
    const recorder = new DataSourceRecorder(dataSource, dataSource.logger);
    Object.defineProperty(dataSource, 'logger', { value: recorder, configurable: true });
    return recorder;
  }

  detach(): void {
    Object.defineProperty(this.dataSource, 'logger', { value: this.previous, configurable: true });
  }

  async record(work: () => Promise<unknown>): Promise<SentStatement[]> {
    const statements: SentStatement[] = [];
    this.statements = statements;
    try {
      await work();
    } finally {
      this.statements = undefined;
    }
    return statements;
  }

  override logQuery(query: string, parameters?: unknown[]): void {
    this.statements?.push({ text: query, values: parameters ?? [] });
  }

  protected writeLog(_level: LogLevel, _message: LogMessage | string | number): void {}
}
