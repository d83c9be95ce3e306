import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { environmentWithout, runToExit } from './helpers/child-process';

const ROOT = resolve(__dirname, '..');
const TS_NODE = require.resolve('ts-node/dist/bin.js');
const PRETTIER = require.resolve('prettier/bin/prettier.cjs');
/** An application module of the tests' own, with the migration this tool made for it. */
const FIXTURE = join(ROOT, 'test/fixtures/orders');
const FIXTURE_MIGRATION = 1795796939839;

/**
 * `npm run migration:generate -- <Name>` as docs/extending.md's recipe has a new developer run
 * it, in a copy of the project with a module copied into src/ and added to AppModule: the
 * tool writes the migration, lists it, formats both, and then has nothing left to do. The
 * module is the tests' own, not examples/shop: the recipe ends by removing that, and by
 * then the project may hold its types itself.
 */
describe('the migration tool, as docs/extending.md uses it', () => {
  let project: string;

  const tool = (...args: string[]) =>
    runToExit(TS_NODE, ['--transpile-only', 'src/tools/migration-tool.ts', ...args], {
      env: environmentWithout('DATABASE_URL', 'TEST_DATABASE_URL'),
      cwd: project,
    });

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'atr-project-'));
    for (const name of ['src', 'package.json', 'tsconfig.json', '.prettierrc']) {
      await cp(join(ROOT, name), join(project, name), { recursive: true });
    }
    await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
    // The recipe's two commands: the module into src/, without its generated migration.
    const module = join(project, 'src/test-orders');
    await cp(FIXTURE, module, { recursive: true });
    for (const file of await readdir(module)) {
      if (file.endsWith('-TestOrders.ts')) await rm(join(module, file));
      else {
        const text = await readFile(join(module, file), 'utf8');
        await writeFile(
          join(module, file),
          text.replaceAll("'../../../src/atrium'", "'../atrium'"),
        );
      }
    }
    // "Add the module to the imports of AppModule".
    const appModule = join(project, 'src/app.module.ts');
    const app = await readFile(appModule, 'utf8');
    await writeFile(
      appModule,
      `import { TestOrdersModule } from './test-orders/test-orders.module';\n` +
        app.replace('StorageModule,\n', 'StorageModule,\n        TestOrdersModule,\n'),
    );
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it('writes the new types’ migration, lists it, formats it; then there is nothing to generate', async () => {
    const drift = await tool('check');
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('CREATE TABLE "test_order"');

    const generated = await tool('generate', 'TestOrders');
    expect(generated.code).toBe(0);
    const [, file, timestamp] =
      /^Wrote (src\/database\/migrations\/(\d+)-TestOrders\.ts) \(\d+ statements\)$/m.exec(
        generated.stdout,
      )!;
    // The fixture's own migration, made by the same tool: the same file but for the time.
    const written = await readFile(join(project, file), 'utf8');
    const fixture = await readFile(join(FIXTURE, `${FIXTURE_MIGRATION}-TestOrders.ts`), 'utf8');
    expect(written).toBe(fixture.replaceAll(String(FIXTURE_MIGRATION), timestamp));
    const index = await readFile(join(project, 'src/database/migrations/index.ts'), 'utf8');
    expect(index).toContain(`import { TestOrders${timestamp} } from './${timestamp}-TestOrders';`);
    expect(index).toMatch(new RegExp(`TestOrders${timestamp},\\n\\];`));
    const formatted = await runToExit(
      PRETTIER,
      ['--check', file, 'src/database/migrations/index.ts'],
      {
        env: process.env,
        cwd: project,
      },
    );
    expect(formatted.code).toBe(0);

    const again = await tool('generate', 'Again');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('there is nothing to generate');
    expect(await tool('check')).toMatchObject({ code: 0 });
  }, 120_000);
});
