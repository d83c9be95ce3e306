import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { environmentWithout, runToExit } from './helpers/child-process';

const ROOT = resolve(__dirname, '..');
const TS_NODE = require.resolve('ts-node/dist/bin.js');
const PRETTIER = require.resolve('prettier/bin/prettier.cjs');
const EXAMPLE_MIGRATION = 1795557044215;

/**
 * `npm run migration:generate -- Shop` as the README has a new developer run it, in a
 * copy of the project with the example module copied into src/ and added to AppModule:
 * the tool writes the migration, lists it, formats both, and then has nothing left to do.
 */
describe('the migration tool, as the README uses it', () => {
  let project: string;

  const tool = (...args: string[]) =>
    runToExit(TS_NODE, ['--transpile-only', 'src/tools/migration-tool.ts', ...args], {
      env: environmentWithout('DATABASE_URL', 'TEST_DATABASE_URL'),
      cwd: project,
    });

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'atr-project-'));
    for (const name of ['src', 'examples', 'package.json', 'tsconfig.json', '.prettierrc']) {
      await cp(join(ROOT, name), join(project, name), { recursive: true });
    }
    await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
    // The README's two commands: the example into src/, without its generated migration.
    const shop = join(project, 'src/shop');
    await cp(join(ROOT, 'examples/shop'), shop, { recursive: true });
    for (const file of await readdir(shop)) {
      if (file.endsWith('-Shop.ts')) await rm(join(shop, file));
      else {
        const text = await readFile(join(shop, file), 'utf8');
        await writeFile(join(shop, file), text.replaceAll("'../../src/atrium'", "'../atrium'"));
      }
    }
    // "Add ShopModule to the imports of AppModule".
    const appModule = join(project, 'src/app.module.ts');
    const app = await readFile(appModule, 'utf8');
    await writeFile(
      appModule,
      `import { ShopModule } from './shop/shop.module';\n` +
        app.replace('StorageModule,\n', 'StorageModule,\n        ShopModule,\n'),
    );
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it('writes the new types’ migration, lists it, formats it; then there is nothing to generate', async () => {
    const drift = await tool('check');
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('CREATE TABLE "purchase_order"');

    const generated = await tool('generate', 'Shop');
    expect(generated.code).toBe(0);
    const [, file] = /^Wrote (src\/database\/migrations\/(\d+)-Shop\.ts) \(\d+ statements\)$/m.exec(
      generated.stdout,
    )!;
    const timestamp = /(\d+)-Shop/.exec(file)![1];
    // The example's own migration, made by the same tool: the same file but for the time.
    const written = await readFile(join(project, file), 'utf8');
    const example = await readFile(
      join(ROOT, `examples/shop/${EXAMPLE_MIGRATION}-Shop.ts`),
      'utf8',
    );
    expect(written).toBe(example.replaceAll(String(EXAMPLE_MIGRATION), timestamp));
    const index = await readFile(join(project, 'src/database/migrations/index.ts'), 'utf8');
    expect(index).toContain(`import { Shop${timestamp} } from './${timestamp}-Shop';`);
    expect(index).toMatch(new RegExp(`Shop${timestamp},\\n\\];`));
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
