import request from 'supertest';
import type {
  EntityDescription,
  PropertyDescription as Property,
} from '../src/metadata/entity-description';
import { AccessFixture, as } from './helpers/access';
import { createTestApp, TestApp } from './helpers/test-app';

const DEMO_TYPES = ['account', 'contact', 'product', 'invoice', 'invoice_line'];

/** The API type of a PostgreSQL column type (information_schema's `data_type`). */
const API_TYPES: Record<string, string> = {
  bigint: 'bigint',
  integer: 'integer',
  numeric: 'decimal',
  'character varying': 'string',
  text: 'string',
  boolean: 'boolean',
  'timestamp with time zone': 'datetime',
  date: 'date',
  uuid: 'uuid',
  jsonb: 'json',
  'USER-DEFINED': 'string', // the demo's enums
};

/** A column default PostgreSQL prints (`'draft'::invoice_status_enum`, `true`, `0`) as the API's value. */
function constantOf(sql: string | null, type: string): string | number | boolean | undefined {
  if (sql === null) return undefined;
  const text = /^'((?:[^']|'')*)'::[\w ".]+$/.exec(sql);
  if (text) return text[1].replaceAll("''", "'");
  if (sql === 'true' || sql === 'false') return sql === 'true';
  if (/^-?\d+(\.\d+)?$/.test(sql)) return type === 'decimal' ? sql : Number(sql);
  return undefined; // an expression
}

describe('GET /rest/metadata/entity', () => {
  let t: TestApp;
  let f: AccessFixture;

  beforeAll(async () => {
    t = await createTestApp();
    f = await AccessFixture.create(t);
  });
  afterAll(() => t.close());

  const describeAll = async (apiKey: string): Promise<EntityDescription[]> =>
    (await as(t, apiKey).get('/rest/metadata/entity').expect(200)).body;

  /** The table as PostgreSQL describes it, in the shape the API should give. */
  async function fromTable(table: string) {
    const columns: {
      column_name: string;
      data_type: string;
      is_nullable: 'YES' | 'NO';
      character_maximum_length: number | null;
      numeric_precision: number | null;
      numeric_scale: number | null;
      udt_name: string;
    }[] = await t.dataSource.query(
      `SELECT column_name, data_type, is_nullable, character_maximum_length,
              numeric_precision, numeric_scale, udt_name
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
      [table],
    );
    const lookups: { column: string; target: string; cascade: boolean }[] =
      await t.dataSource.query(
        `SELECT a.attname AS column, c.confrelid::regclass::text AS target,
                c.confdeltype = 'c' AS cascade
           FROM pg_constraint c
           JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
          WHERE c.contype = 'f' AND c.conrelid = $1::regclass`,
        [table],
      );
    const enums = new Map<string, string[]>();
    for (const column of columns.filter((c) => c.data_type === 'USER-DEFINED')) {
      const rows: { label: string }[] = await t.dataSource.query(
        `SELECT e.enumlabel AS label FROM pg_enum e JOIN pg_type ty ON ty.oid = e.enumtypid
          WHERE ty.typname = $1 ORDER BY e.enumsortorder`,
        [column.udt_name],
      );
      enums.set(
        column.column_name,
        rows.map((r) => r.label),
      );
    }
    return columns.map((column) => {
      const lookup = lookups.find((l) => l.column === column.column_name);
      return {
        name: column.column_name,
        type: API_TYPES[column.data_type],
        nullable: column.is_nullable === 'YES',
        maxLength: column.character_maximum_length ?? undefined,
        precision: column.data_type === 'numeric' ? column.numeric_precision : undefined,
        scale: column.data_type === 'numeric' ? column.numeric_scale : undefined,
        enum: enums.get(column.column_name),
        lookup: lookup ? { entity: lookup.target.replace(/"/g, '') } : undefined,
      };
    });
  }

  /** Child tables: a cascading foreign key named id_<parent>. */
  async function childrenOf(table: string): Promise<{ name: string; entity: string }[]> {
    const rows: { child: string }[] = await t.dataSource.query(
      `SELECT c.conrelid::regclass::text AS child
         FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        WHERE c.contype = 'f' AND c.confrelid = $1::regclass AND c.confdeltype = 'c'
          AND a.attname = $2`,
      [table, `id_${table}`],
    );
    return rows.map(({ child }) => ({ name: `${table}_${child}`, entity: child }));
  }

  it.each(DEMO_TYPES)(
    'describes %s as its table is: types, nullability, sizes, enums, lookups, child groups',
    async (name) => {
      const described = (await describeAll(f.admin)).find((type) => type.name === name)!;
      expect(described).toBeDefined();
      const table = await fromTable(name);
      const strip = (o: object) =>
        Object.fromEntries(Object.entries(o).filter(([, value]) => value !== undefined));
      expect(
        described.properties
          .map(({ name, type, nullable, maxLength, precision, scale, enum: values, lookup }) =>
            strip({ name, type, nullable, maxLength, precision, scale, enum: values, lookup }),
          )
          .sort((a, b) => String(a.name).localeCompare(String(b.name))),
      ).toEqual(table.map(strip).sort((a, b) => String(a.name).localeCompare(String(b.name))));
      expect(described.childGroups).toEqual(await childrenOf(name));
    },
  );

  it.each(['invoice', 'product', 'user', 'role_privilege'])(
    "gives the default of each of %s's client properties as its table holds it",
    async (name) => {
      const described = (await describeAll(f.admin)).find((type) => type.name === name)!;
      const rows: { column_name: string; column_default: string | null }[] =
        await t.dataSource.query(
          `SELECT column_name, column_default FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name = $1`,
          [name],
        );
      const own = described.properties.filter((p) => !p.system && !p.computed && !p.writeOnly);
      const expected = own.map((property) => {
        const sql = rows.find((r) => r.column_name === property.name)!.column_default;
        return { name: property.name, default: constantOf(sql, property.type) };
      });
      expect(own.map((p) => ({ name: p.name, default: p.default }))).toEqual(expected);
      expect(expected.some((p) => p.default !== undefined)).toBe(true);
    },
  );

  it('tells what the engine and hooks set, what is required, the labels, and a child’s parent', async () => {
    const types = await describeAll(f.admin);
    const invoice = types.find((type) => type.name === 'invoice')!;
    const property = (type: EntityDescription, name: string) =>
      type.properties.find((p) => p.name === name)!;
    expect(invoice.label).toBe('Invoice');
    expect(property(invoice, 'total')).toMatchObject({ computed: true, system: false });
    expect(property(invoice, 'key')).toMatchObject({ system: true, computed: false });
    expect(property(invoice, 'id_account')).toMatchObject({
      label: 'Account',
      required: true,
      lookup: { entity: 'account' },
    });
    expect(property(invoice, 'status')).toMatchObject({
      required: false,
      enum: ['draft', 'issued', 'paid', 'cancelled'],
    });
    expect(property(invoice, 'issue_date').label).toBe('Issued on');
    const account = types.find((type) => type.name === 'account')!;
    expect(account.label).toBe('Customer account');
    expect(property(account, 'credit_limit')).toMatchObject({
      label: 'Credit limit',
      secured: true,
    });
    const line = types.find((type) => type.name === 'invoice_line')!;
    expect(line.parent).toBe('invoice');
    expect(property(line, 'id_invoice')).toMatchObject({ system: true, required: false });
    const user = types.find((type) => type.name === 'user')!;
    expect(property(user, 'password')).toMatchObject({ type: 'string', writeOnly: true });
    expect(user.properties.map((p) => p.name)).not.toContain('password_hash');
  });

  it('leaves out the types the caller may not read, and the secured properties it may not read', async () => {
    const role = await f.role({ contact: { read: 'organization' } });
    const reader = await f.user(f.units.child, [role.name]);
    const names = (await describeAll(reader.apiKey)).map((type) => type.name);
    expect(names).toContain('contact');
    // Types no role governs are the organization's to read.
    expect(names).toEqual(expect.arrayContaining(['user', 'business_unit', 'role']));
    for (const hidden of ['account', 'invoice', 'invoice_line', 'product']) {
      expect(names).not.toContain(hidden);
    }
    const refused = await as(t, reader.apiKey).get('/rest/metadata/entity/account').expect(404);
    expect(refused.body).toEqual({ detail: 'Unknown entity type "account"' });

    const accountReader = await f.user(f.units.child, [
      (await f.role({ account: { read: 'user' } })).name,
    ]);
    const account = (
      await as(t, accountReader.apiKey).get('/rest/metadata/entity/account').expect(200)
    ).body as EntityDescription;
    expect(account.properties.map((p) => p.name)).not.toContain('credit_limit');
    const fieldReader = await f.user(f.units.child, [
      (
        await f.role({ account: { read: 'user' } }, [
          { entity_name: 'account', property: 'credit_limit', read: true, update: false },
        ])
      ).name,
    ]);
    const withField = (await as(t, fieldReader.apiKey).get('/rest/metadata/entity/account')).body;
    expect(withField.properties.map((p: Property) => p.name)).toContain('credit_limit');
  });

  it('answers 404 for an unknown type and 401 without credentials', async () => {
    const { body } = await as(t, f.admin).get('/rest/metadata/entity/spaceship').expect(404);
    expect(body).toEqual({ detail: 'Unknown entity type "spaceship"' });
    await request(t.http).get('/rest/metadata/entity').expect(401);
  });
});
