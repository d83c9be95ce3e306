import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { appEntities } from '../app.module';
import { SchemaDifference, schemaDifference } from '../database/throwaway-database';

/**
 * `npm run migration:generate -- <Name>` and `npm run migration:check`: the difference
 * between the app's entities and what its migrations build, found on a throwaway
 * embedded database (no database of the developer's is touched). `generate` writes it as
 * a migration into src/database/migrations/ and lists it in index.ts; `check` fails when
 * there is any (CI's drift check).
 */
const MIGRATIONS_DIR = resolve(__dirname, '../database/migrations');
const INDEX = join(MIGRATIONS_DIR, 'index.ts');
const NAME = /^[A-Z][A-Za-z0-9]*$/;

async function main([command, name]: string[]): Promise<number> {
  if (command === 'generate' && (!name || !NAME.test(name))) {
    console.error('Usage: npm run migration:generate -- <Name> (PascalCase, e.g. PurchaseOrders)');
    return 2;
  }
  if (command !== 'generate' && command !== 'check') {
    console.error('Usage: migration-tool generate <Name> | check');
    return 2;
  }
  const difference = await schemaDifference(appEntities());
  if (difference.up.length === 0) {
    console.log('The entities and the migrations agree: there is nothing to generate.');
    return 0;
  }
  if (command === 'check') {
    console.error(
      'The entities and the migrations disagree; `npm run migration:generate -- <Name>` ' +
        'would write:\n' +
        difference.up.map((sql) => `  ${sql};`).join('\n'),
    );
    return 1;
  }
  const file = await writeMigration(name, difference);
  console.log(`Wrote ${relative(process.cwd(), file)} (${difference.up.length} statements)`);
  return 0;
}

async function writeMigration(name: string, difference: SchemaDifference): Promise<string> {
  const timestamp = Date.now();
  const className = `${name}${timestamp}`;
  const file = join(MIGRATIONS_DIR, `${timestamp}-${name}.ts`);
  const statements = (list: string[]) =>
    list.map((sql) => `    await queryRunner.query(${JSON.stringify(sql)});`).join('\n');
  const source = `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  public async up(queryRunner: QueryRunner): Promise<void> {
${statements(difference.up)}
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
${statements(difference.down)}
  }
}
`;
  await writeFormatted(file, source);
  await register(className, `./${timestamp}-${name}`);
  return file;
}

/** Lists the migration in index.ts: imported, and last in MIGRATIONS. */
async function register(className: string, path: string): Promise<void> {
  const index = await readFile(INDEX, 'utf8');
  const list = /(export const MIGRATIONS = \[[\s\S]*?)(\n\];)/;
  if (!list.test(index)) throw new Error(`${INDEX} has no "export const MIGRATIONS = [ … ];"`);
  const imports = index.lastIndexOf('\nimport ');
  const endOfImports = index.indexOf('\n', imports + 1);
  const withImport =
    index.slice(0, endOfImports + 1) +
    `import { ${className} } from '${path}';\n` +
    index.slice(endOfImports + 1);
  await writeFormatted(INDEX, withImport.replace(list, `$1\n  ${className},$2`));
}

async function writeFormatted(file: string, source: string): Promise<void> {
  const options = await resolveConfig(file);
  await writeFile(file, await format(source, { ...options, filepath: file }));
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`The migration tool failed: ${error.message}`);
    process.exit(1);
  },
);
