import fc from 'fast-check';
import { StatementCounter } from './helpers/statement-counter';
import { createTestApp, postFetch, seedAdmin, TestApp } from './helpers/test-app';

/**
 * FETCH cuts the root's page before joining its links where no link can remove or
 * multiply a root row (src/fetch/fetch.compiler.ts, limitsFirst): the same rows as
 * joining first, proven here against hand-written join-first SQL on random queries, and
 * the plan PostgreSQL makes of it read from EXPLAIN.
 */
describe('FETCH: the page before the joins', () => {
  let t: TestApp;
  let key: string;
  let org: number;
  let counter: StatementCounter;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await seedAdmin(t);
    key = admin.key;
    org = Number(admin.user.idOrganization);
    counter = await StatementCounter.attach(t);
  });
  afterAll(() => t.close());

  /** The one statement a FETCH query runs, with its parameters, and its rows. */
  async function run(query: string): Promise<{ sql: string; params: unknown[]; rows: object[] }> {
    let rows: object[] = [];
    const statements = await counter.record(async () => {
      rows = (await postFetch(t, key, query).expect(200)).body;
    });
    // The query's own: its root is t0. Another SELECT may come first (the caller's grants
    // read again after a role change's notification arrived).
    const index = statements.findIndex((s) => s.startsWith('SELECT t0.'));
    return { sql: statements[index], params: counter.parameters[index], rows };
  }

  interface PlanNode {
    'Node Type': string;
    'Relation Name'?: string;
    'Actual Rows'?: number;
    Plans?: PlanNode[];
  }
  async function plan(sql: string, params: unknown[]): Promise<PlanNode> {
    const [row] = await t.dataSource.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
    return (row['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
  }
  const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
  const joinOf = (root: PlanNode) =>
    nodes(root).find((n) => /Nested Loop|Hash Join|Merge Join/.test(n['Node Type']))!;

  const LIST = `FETCH invoice (number, status, total) { account AS a TO id_account (name) }
    WHERE status IN ('issued', 'paid') ORDER BY total DESC LIMIT 5`;

  it('joins the account to the 5 invoices of the page, not to every invoice (EXPLAIN)', async () => {
    const { sql, params } = await run(LIST);
    expect(sql).toMatch(
      /FROM \(SELECT \* FROM "invoice" t0 WHERE .* LIMIT \$\d+::int8\) t0 INNER JOIN "account" t1/,
    );
    const join = joinOf(await plan(sql, params));
    // The join's invoice side is the page: a Limit under the join, 5 rows into it.
    const invoiceSide = join.Plans!.find((p) =>
      nodes(p).some((n) => n['Relation Name'] === 'invoice'),
    )!;
    expect(nodes(invoiceSide).map((n) => n['Node Type'])).toContain('Limit');
    expect(invoiceSide['Actual Rows']).toBe(5);
  });

  it('joins first where a link can remove rows, or the order is not the root’s own', async () => {
    for (const query of [
      `FETCH invoice (number, total) { account AS a TO id_account (name) WHERE name LIKE 'A%' } ORDER BY total DESC LIMIT 5`,
      `FETCH invoice (number, total) { account AS a TO id_account (name) } WHERE a.name LIKE 'A%' ORDER BY total DESC LIMIT 5`,
      `FETCH invoice (number, total) { account AS a TO id_account (name) ORDER BY name } ORDER BY total DESC LIMIT 5`,
      `FETCH invoice (number, total) { account AS a TO id_account (name) { invoice AS d EXISTS FROM id_account TO key WHERE status = 'draft' } } ORDER BY total DESC LIMIT 5`,
    ]) {
      const { sql, params } = await run(query);
      expect(sql).not.toMatch(/FROM \(SELECT \*/);
      const top = await plan(sql, params);
      // The Limit is over the join: every joined row is made before the page is cut.
      const limit = nodes(top).find((n) => n['Node Type'] === 'Limit')!;
      expect(nodes(limit)).toContain(joinOf(top));
    }
  });

  it('answers what joining first answers, for random orders, pages, filters and links (property)', async () => {
    const COLUMNS = ['number', 'total', 'status', 'issue_date', 'currency', 'key'] as const;
    const order = fc.uniqueArray(
      fc.record({ column: fc.constantFrom(...COLUMNS), asc: fc.boolean() }),
      { minLength: 1, maxLength: 3, selector: (o) => o.column },
    );
    const cases = fc.record({
      order,
      limit: fc.integer({ min: 1, max: 30 }),
      offset: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
      status: fc.option(fc.constantFrom('draft', 'issued', 'paid'), { nil: undefined }),
      outer: fc.boolean(),
      linkFilter: fc.option(fc.constantFrom('A%', 'B%', '%a%'), { nil: undefined }),
      onLinkColumn: fc.boolean(),
      draftsInLink: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const linkWhere =
          c.linkFilter && !c.onLinkColumn ? ` WHERE name LIKE '${c.linkFilter}'` : '';
        // Accounts with a draft invoice: an EXISTS link inside the account link.
        const drafts = c.draftsInLink
          ? ` { invoice AS d EXISTS FROM id_account TO key WHERE status = 'draft' }`
          : '';
        const where = [
          c.status && `status = '${c.status}'`,
          c.linkFilter && c.onLinkColumn && `a.name LIKE '${c.linkFilter}'`,
        ].filter(Boolean);
        const fetch =
          `FETCH invoice (key, number, total, status) { account AS a ${c.outer ? 'OUTER ' : ''}TO id_account (name)${drafts}${linkWhere} }` +
          (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
          ` ORDER BY ${c.order.map((o) => `${o.column}${o.asc ? ' ASC' : ' DESC'}`).join(', ')}` +
          (c.offset ? ` OFFSET ${c.offset}` : '') +
          ` LIMIT ${c.limit}`;
        const { sql, rows } = await run(fetch);
        const removesNoRow = c.outer || (!linkWhere && !c.draftsInLink);
        expect(/FROM \(SELECT \*/.test(sql)).toBe(
          removesNoRow && !(c.linkFilter && c.onLinkColumn),
        );

        const accountOn = ['a.key = i.id_account', 'a.id_organization = $1'];
        if (linkWhere) accountOn.push(`a.name LIKE '${c.linkFilter}'`);
        if (c.draftsInLink) {
          accountOn.push(
            `EXISTS (SELECT 1 FROM invoice d WHERE d.id_account = a.key AND d.id_organization = $1 AND d.status = 'draft')`,
          );
        }
        const conditions = ['i.id_organization = $1'];
        if (c.status) conditions.push(`i.status = '${c.status}'`);
        if (c.linkFilter && c.onLinkColumn) conditions.push(`a.name LIKE '${c.linkFilter}'`);
        const orderBy = c.order.map((o) => `i.${o.column} ${o.asc ? 'ASC' : 'DESC'}`);
        if (!c.order.some((o) => o.column === 'key')) orderBy.push('i.key ASC');
        const expected = await t.dataSource.query(
          `SELECT i.key, i.number, i.total, i.status, a.name AS "a.name"
             FROM invoice i ${c.outer ? 'LEFT' : 'INNER'} JOIN account a ON ${accountOn.join(' AND ')}
            WHERE ${conditions.join(' AND ')} ORDER BY ${orderBy.join(', ')}
            LIMIT ${c.limit} OFFSET ${c.offset ?? 0}`,
          [org],
        );
        expect(rows).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});
