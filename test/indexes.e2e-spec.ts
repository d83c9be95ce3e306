import { EntityRegistry } from '../src/model/entity.registry';
import { createTestApp, TestApp } from './helpers/test-app';

/**
 * The columns every statement's WHERE names are indexed in the order it names them: the
 * access predicates (src/access/access.scope.ts) are `id_organization = …` then
 * `id_business_unit = …` or `id_user = …`; a lookup is followed by its column alone (a
 * FETCH link, the foreign key's own check when the row it names is deleted).
 */
describe('indexes', () => {
  let t: TestApp;
  /** Each index of each table, as the list of its columns in order. */
  let indexes: Map<string, string[][]>;

  beforeAll(async () => {
    t = await createTestApp();
    const rows: { table: string; columns: string[] }[] = await t.dataSource.query(
      `SELECT c.relname AS table,
              array_agg(a.attname ORDER BY k.ord)::text[] AS columns
         FROM pg_index i
         JOIN pg_class c ON c.oid = i.indrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
         CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
        GROUP BY c.relname, i.indexrelid`,
    );
    indexes = new Map();
    for (const { table, columns } of rows) {
      indexes.set(table, [...(indexes.get(table) ?? []), columns]);
    }
  });
  afterAll(() => t.close());

  /** Whether some index of the table starts with these columns, in this order. */
  const leads = (table: string, columns: string[]) =>
    (indexes.get(table) ?? []).some((index) => columns.every((c, i) => index[i] === c));

  it('leads an index with each owner predicate of every entity type', () => {
    const missing = t.app
      .get(EntityRegistry)
      .all()
      .flatMap((type) =>
        [
          ['id_organization', 'id_business_unit'],
          ['id_organization', 'id_user'],
        ]
          .filter((columns) => !leads(type.name, columns))
          .map((columns) => `${type.name} (${columns.join(', ')})`),
      );
    expect(missing).toEqual([]);
  });

  it('leads an index with every lookup column but the owner ones', () => {
    const OWNERS = ['id_organization', 'id_business_unit', 'id_user'];
    const missing = t.app
      .get(EntityRegistry)
      .all()
      .flatMap((type) =>
        [...type.properties.values()]
          .filter((p) => p.lookup && !OWNERS.includes(p.name) && !leads(type.name, [p.name]))
          .map((p) => `${type.name}.${p.name}`),
      );
    expect(missing).toEqual([]);
  });
});
