import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { AccessService } from '../access/access.service';
import { identityOf } from '../auth/identity.mapper';
import { Identity } from '../common/identity';
import { DataSourceRecorder, dedent, SentStatement } from '../database/sql-snapshot';
import { UserService } from '../directory/user.service';
import { EntityService } from '../entity/entity.service';
import { FetchService } from '../fetch/fetch.service';
import { OrphanSweeper } from '../storage/orphan-sweeper';
import { crossingError, TenancyContext, tenancyProblem } from './sql-tenancy';

/** The callers of the scenarios: an administrator, and a sales rep (unit reads, own writes). */
export const CALLERS = ['admin', 'sara.sales'] as const;

interface ScenarioServices {
  entities: EntityService;
  fetch: FetchService;
  caller: Identity;
  /** An account the caller owns, and the invoice the scenario before made. */
  keys: { account: number; invoice?: number };
}

/** One request's work, as the HTTP routes hand it to the services. */
export interface Scenario {
  name: string;
  run(services: ScenarioServices): Promise<unknown>;
}

const LINES = 'invoice_invoice_line';
const line = (quantity: number, unitPrice: string) => ({
  properties: { quantity, unit_price: unitPrice, description: 'Scenario line' },
});

/**
 * The entity store's statements for the demo types, as requests make them: a record with
 * its child group written, read, changed and deleted, a lookup checked. In this order (each
 * on the invoice the first made).
 */
export const ENTITY_SCENARIOS: Scenario[] = [
  {
    name: 'POST /rest/entity/invoice (an invoice with two lines)',
    run: async ({ entities, caller, keys }) => {
      const { key } = await entities.create(caller, 'invoice', {
        properties: { id_account: keys.account, currency: 'EUR' },
        children: { [LINES]: [line(1, '10.00'), line(2, '5.50')] },
      });
      keys.invoice = key;
    },
  },
  {
    name: 'GET /rest/entity/invoice/{key} (with its lines)',
    run: ({ entities, caller, keys }) => entities.read(caller, 'invoice', keys.invoice!),
  },
  {
    name: 'POST /rest/entity/invoice/{key} (a property, one line kept and changed, one new, one gone)',
    run: async ({ entities, caller, keys }) => {
      const { entity } = await entities.read(caller, 'invoice', keys.invoice!);
      const [first] = entity.children[LINES];
      await entities.update(caller, 'invoice', keys.invoice!, {
        properties: { currency: 'RON' },
        children: {
          [LINES]: [{ properties: { key: first.properties.key, quantity: 3 } }, line(4, '1.25')],
        },
      });
    },
  },
  {
    name: 'DELETE /rest/entity/invoice/{key}',
    run: ({ entities, caller, keys }) => entities.delete(caller, 'invoice', keys.invoice!),
  },
  {
    name: 'POST /rest/entity/contact (a lookup to an account)',
    run: ({ entities, caller, keys }) =>
      entities.create(caller, 'contact', {
        properties: { last_name: 'Scenario', id_account: keys.account },
      }),
  },
];

/** FETCH's compiled statements for the demo types: a list with a link, an aggregate, EXISTS. */
export const FETCH_SCENARIOS: Scenario[] = [
  `FETCH invoice (number, status, total) { account AS a TO id_account (name) }
     WHERE status IN ('issued', 'paid') ORDER BY total DESC LIMIT 5`,
  `FETCH invoice (status, MONTH(issue_date) AS month, COUNT(*) AS n, SUM(total) AS revenue)
     GROUP BY status, month ORDER BY month, status`,
  `FETCH account (name, country) { invoice AS draft EXISTS FROM id_account TO key
     WHERE status = 'draft' } ORDER BY name LIMIT 20`,
  `FETCH invoice (number) { invoice_line FROM id_invoice TO key (quantity, amount) }
     WHERE number LIKE 'INV-%' LIMIT 3`,
].map((text) => ({
  name: text.replace(/\s+/g, ' '),
  run: ({ fetch, caller }) => fetch.run(caller, { text }, {}),
}));

/** A scenario's recording: who ran it and what it sent. */
export interface RecordedScenario {
  name: string;
  caller: (typeof CALLERS)[number];
  /** The caller's organization, which each statement must bind. */
  organizationKey: number;
  statements: SentStatement[];
}

/**
 * Runs each scenario as each caller in the app (its demo data seeded), recording every
 * statement the data source sends meanwhile. Each caller's scope is worked out before, so
 * that its grants' reads are no scenario's.
 */
export async function recordScenarios(
  app: INestApplicationContext,
  scenarios: Scenario[],
): Promise<RecordedScenario[]> {
  await app.get(OrphanSweeper).settled();
  const recorder = DataSourceRecorder.attach(app);
  try {
    const recorded: RecordedScenario[] = [];
    for (const userName of CALLERS) {
      const user = (await app.get(UserService).findByName(userName))!;
      const caller = identityOf(user, 'api-key', user.locale);
      await app.get(AccessService).scopeOf(caller);
      const fetch = app.get(FetchService);
      const { rows } = await fetch.run(
        caller,
        { text: `FETCH account (key) WHERE id_user = ${user.key} ORDER BY key LIMIT 1` },
        {},
      );
      const services = {
        entities: app.get(EntityService),
        fetch,
        caller,
        keys: { account: rows[0].key as number },
      };
      for (const scenario of scenarios) {
        const statements = await recorder.record(() =>
          scenario.run(services).catch((error: Error) => {
            throw new Error(`${scenario.name}, as ${userName}, failed: ${error.message}`);
          }),
        );
        recorded.push({
          name: scenario.name,
          caller: userName,
          organizationKey: caller.organizationKey,
          statements,
        });
      }
    }
    return recorded;
  } finally {
    recorder.detach();
  }
}

/** The snapshot files of the scenarios: where their statements are built. */
const SCENARIO_FILES: [file: string, source: string, scenarios: Scenario[]][] = [
  ['entity.store.sql', 'src/entity/entity.store.ts', ENTITY_SCENARIOS],
  ['fetch.compiler.sql', 'src/fetch/fetch.compiler.ts', FETCH_SCENARIOS],
];

/**
 * The scenarios' snapshots, by file name, from the app on its own database (migrated and
 * seeded with the demo data at its start). Each statement binds its caller's tenant, but
 * for those the repositories send under a system scope (the change log's writer).
 */
export async function scenarioSnapshots(
  url: string,
  { systemTexts, owned }: TenancyContext,
): Promise<Map<string, string>> {
  Object.assign(process.env, SCENARIO_ENVIRONMENT);
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ databaseUrl: url }), {
    logger: false,
    abortOnError: false,
  });
  try {
    const snapshots = new Map<string, string>();
    const problems: string[] = [];
    for (const [file, source, scenarios] of SCENARIO_FILES) {
      const recorded = await recordScenarios(app, scenarios);
      for (const { name, caller, organizationKey, statements } of recorded) {
        const tenancy = { kind: 'tenant', organizationKey } as const;
        for (const statement of statements) {
          if (systemTexts.has(statement.text)) continue;
          const problem = tenancyProblem(statement, tenancy, owned);
          if (problem) problems.push(`${name} as ${caller}: a statement ${problem}`);
        }
      }
      snapshots.set(file, formatScenarios(source, recorded, systemTexts));
    }
    if (problems.length > 0) throw crossingError(problems);
    return snapshots;
  } finally {
    await app.close();
  }
}

/**
 * The app as the scenarios run it: the demo data seeded, no job worked (no statement of a
 * worker's among a request's), a known admin password (no password file written).
 */
const SCENARIO_ENVIRONMENT = {
  JOBS: 'false',
  DEMO_DATA: 'true',
  ADMIN_PASSWORD: 'scenario-admin-password',
  LOG_LEVEL: 'silent',
};

function formatScenarios(
  source: string,
  recorded: RecordedScenario[],
  systemTexts: Map<string, string>,
): string {
  const sections = recorded.map(({ name, caller, statements }) =>
    [
      `-- ${name}, as ${caller}`,
      ...statements.map(({ text }) => {
        const purpose = systemTexts.get(text);
        return `${purpose ? `-- (system scope ${purpose})\n` : ''}${dedent(text)};`;
      }),
    ].join('\n'),
  );
  return [
    `-- The SQL of ${source} for the demo types, as the requests named make it, each bound to its caller's tenant: written by npm run sql:generate, checked by CI.`,
    ...sections,
  ]
    .join('\n\n')
    .concat('\n');
}
