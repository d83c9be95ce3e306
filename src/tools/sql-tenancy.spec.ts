import { systemScope } from '../access/access.tenant';
import { SAMPLE_SCOPES, SAMPLE_TENANT } from '../access/scope.samples';
import { tablesOf, tenancyOf, tenancyProblem } from './sql-tenancy';

const OWNED = new Set(['webhook', 'invoice', 'user']);

describe('the SQL snapshots’ tenancy check', () => {
  it('reads the tables a statement names, not functions, schemas or its CTEs’ columns', () => {
    expect(
      tablesOf(
        `WITH r AS (INSERT INTO role (name) VALUES ($1) RETURNING key)
         SELECT * FROM unnest($2::text[]) JOIN "user" u ON true
           LEFT JOIN pgboss.job j ON true, r UPDATE ONLY webhook SET x = 1`,
      ),
    ).toEqual(['role', 'user', 'webhook']);
  });

  it('reads the tables after an unaliased one, of FROM lists, USING and the public schema', () => {
    expect(tablesOf('WITH k AS (SELECT 1) SELECT * FROM k JOIN "user" u ON u.key = k.id')).toEqual([
      'k',
      'user',
    ]);
    expect(tablesOf('SELECT 1 FROM invoice i, account a WHERE true')).toEqual([
      'invoice',
      'account',
    ]);
    expect(tablesOf('DELETE FROM contact c USING account a WHERE a.key = c.id_account')).toEqual([
      'contact',
      'account',
    ]);
    expect(tablesOf('SELECT 1 FROM public.invoice i, "public"."account"')).toEqual([
      'invoice',
      'account',
    ]);
  });

  it('reads a call’s tenancy from its arguments', () => {
    expect(tenancyOf([1, SAMPLE_TENANT])).toEqual({ kind: 'tenant', organizationKey: 1 });
    expect(tenancyOf([SAMPLE_SCOPES.administrator])).toEqual({
      kind: 'tenant',
      organizationKey: 1,
    });
    expect(tenancyOf([systemScope('jobs'), 3])).toEqual({ kind: 'system', purpose: 'jobs' });
    expect(tenancyOf([{ organizationKey: 1 }, 2])).toEqual({ kind: 'none' });
  });

  const tenant = { kind: 'tenant', organizationKey: 1 } as const;

  it('passes a statement that binds the tenant’s id_organization', () => {
    const bound = {
      text: 'SELECT 1 FROM webhook WHERE key = $1 AND id_organization = $2',
      values: [5, 1],
    };
    expect(tenancyProblem(bound, tenant, OWNED)).toBeUndefined();
  });

  it('refuses one that binds no tenant, or takes none', () => {
    const unbound = { text: 'SELECT secret FROM webhook WHERE key = $1', values: [5] };
    expect(tenancyProblem(unbound, tenant, OWNED)).toBe(
      "touches webhook (organization-owned) and does not bind its tenant's id_organization there",
    );
    expect(tenancyProblem(unbound, { kind: 'none' }, OWNED)).toBe(
      'touches webhook (organization-owned) and takes no tenant, scope or system scope',
    );
  });

  it('wants each organization-owned table of a statement bound, by its alias', () => {
    const linked = {
      text: `SELECT t0.key FROM "invoice" t0 INNER JOIN "user" t1 ON t1.key = t0.id_user
              WHERE t0."id_organization" = $1::int8`,
      values: [1],
    };
    expect(tenancyProblem(linked, tenant, OWNED)).toBe(
      "touches user t1 (organization-owned) and does not bind its tenant's id_organization there",
    );
    const both = { ...linked, text: `${linked.text} AND t1."id_organization" = $1::int8` };
    expect(tenancyProblem(both, tenant, OWNED)).toBeUndefined();
    // Bound to another organization than the tenant's: not bound.
    expect(tenancyProblem({ ...both, values: [2] }, tenant, OWNED)).toMatch(/does not bind/);
  });

  it('wants an INSERT to write the tenant into id_organization, in every row', () => {
    const insert = {
      text: 'INSERT INTO "invoice" ("number", "id_organization") VALUES ($1, $2), ($3, $4)',
      values: ['INV-1', 1, 'INV-2', 1],
    };
    expect(tenancyProblem(insert, tenant, OWNED)).toBeUndefined();
    // Another row's organization, beside a value that happens to equal the tenant's key.
    const other = { ...insert, values: [1, 1, 'INV-2', 2] };
    expect(tenancyProblem(other, tenant, OWNED)).toMatch(/does not bind/);
  });

  it('counts each use of a reference: one binding does not cover two subqueries', () => {
    const twice = {
      text: `SELECT (SELECT count(*) FROM invoice WHERE id_organization = $1),
                    (SELECT count(*) FROM invoice WHERE status = 'draft')`,
      values: [1],
    };
    expect(tenancyProblem(twice, tenant, OWNED)).toMatch(/touches invoice .* does not bind/);
    const reversed = {
      text: 'SELECT 1 FROM webhook w WHERE $1::int8 = w.id_organization',
      values: [1],
    };
    expect(tenancyProblem(reversed, tenant, OWNED)).toBeUndefined();
  });

  it('lets a system scope span organizations, and leaves other tables alone', () => {
    const all = { text: 'SELECT key FROM webhook WHERE active', values: [] };
    expect(
      tenancyProblem(all, { kind: 'system', purpose: 'webhook-delivery' }, OWNED),
    ).toBeUndefined();
    const session = { text: 'DELETE FROM session WHERE key = $1', values: [1] };
    expect(tenancyProblem(session, { kind: 'none' }, OWNED)).toBeUndefined();
  });
});
