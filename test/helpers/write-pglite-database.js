'use strict';
/**
 * A child process of test/pglite-conversion.e2e-spec.ts (PGlite loads with a dynamic
 * import, which Jest's VM refuses): writes a PGlite database as Atrium did while PGlite
 * was its embedded database.
 *   node write-pglite-database.js <PGlite's entry> <directory> <fixture.json>
 * fixture.json: {statements: [...SQL of the migrations], migrations: [{timestamp, name}],
 * rows: {table: [row, ...]}}, each value its text (or null), as PostgreSQL reads it back
 * exactly. Each identity is left 3 past the highest value, as after deletes.
 */
const { readFileSync } = require('node:fs');

const DELETED_ROWS = 3;

async function main([entry, directory, fixturePath]) {
  const { PGlite } = require(entry);
  const { statements, migrations, rows } = JSON.parse(readFileSync(fixturePath, 'utf8'));
  const db = await PGlite.create(directory);
  try {
    for (const sql of statements) await db.exec(sql);
    // TypeORM's table of applied migrations.
    await db.exec(
      'CREATE TABLE migrations (id SERIAL PRIMARY KEY, timestamp bigint NOT NULL, name varchar NOT NULL)',
    );
    for (const { timestamp, name } of migrations) {
      await db.query('INSERT INTO migrations (timestamp, name) VALUES ($1, $2)', [timestamp, name]);
    }
    await db.exec('SET session_replication_role = replica');
    for (const [table, tableRows] of Object.entries(rows)) {
      await db.query(
        `INSERT INTO "${table}" OVERRIDING SYSTEM VALUE
         SELECT * FROM json_populate_recordset(NULL::"${table}", $1::json)`,
        [JSON.stringify(tableRows)],
      );
    }
    // As if the last DELETED_ROWS rows of each table had been deleted since.
    const { rows: identities } = await db.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND is_identity = 'YES'`,
    );
    for (const { table_name: table, column_name: column } of identities) {
      await db.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max("${column}"), 0) + $3)
           FROM "${table}"`,
        [`"${table}"`, column, DELETED_ROWS],
      );
    }
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
