import { AccessScope } from '../access/access.scope';
import {
  issuedBy,
  SYSTEM_PURPOSES,
  SystemPurpose,
  SystemScope,
  Tenant,
} from '../access/access.tenant';
import type { SentStatement } from '../database/sql-snapshot';

/** What a repository call is bound to, read from its arguments. */
export type CallTenancy =
  | { kind: 'tenant'; organizationKey: number }
  | { kind: 'system'; purpose: SystemPurpose }
  | { kind: 'none' };

/** A call's tenant, scope or system scope, whichever of its arguments is one. */
export function tenancyOf(params: unknown[]): CallTenancy {
  for (const param of params) {
    if (param instanceof AccessScope) {
      return { kind: 'tenant', organizationKey: param.tenant.organizationKey };
    }
    const issued = issuedBy(param);
    if (issued === 'tenant') {
      return { kind: 'tenant', organizationKey: (param as Tenant).organizationKey };
    }
    if (issued === 'system') return { kind: 'system', purpose: (param as SystemScope).purpose };
  }
  return { kind: 'none' };
}

/** Words that may follow a table where no alias does. */
const KEYWORDS =
  'WHERE|ON|SET|JOIN|LEFT|RIGHT|INNER|FULL|CROSS|NATURAL|ORDER|GROUP|HAVING|LIMIT|OFFSET|FETCH|VALUES|SELECT|RETURNING|USING|FOR|UNION|EXCEPT|INTERSECT|WITH|AND|OR|DEFAULT|ON CONFLICT';

/**
 * One table of a FROM list, a JOIN, an INSERT, an UPDATE or a USING, at the sticky index:
 * `public.` or none (another schema's, pgboss.job, is not ours), not a function's name
 * (unnest(…)), and its alias unless what follows is a keyword.
 */
const TABLE = new RegExp(
  `\\s*(?:ONLY\\s+)?(?:"?public"?\\.)?"?([a-z_][a-z0-9_]*)"?(?![.(\\w])` +
    `(?:\\s+(?:AS\\s+)?(?!(?:${KEYWORDS})\\b)([a-z_][a-z0-9_]*)\\b)?`,
  'iy',
);
const LIST_NEXT = /\s*,/y;

/** Each place a statement reads or changes a table: the keyword, the table, its alias. */
export function occurrences(text: string): { keyword: string; table: string; alias?: string }[] {
  const found: { keyword: string; table: string; alias?: string }[] = [];
  for (const match of text.matchAll(/\b(FROM|JOIN|INTO|UPDATE|USING)\b/gi)) {
    const keyword = match[1].toUpperCase();
    let at = match.index + match[0].length;
    // A FROM or USING list names tables after commas too (FROM a, b).
    for (;;) {
      TABLE.lastIndex = at;
      const table = TABLE.exec(text);
      if (!table) break;
      found.push({ keyword, table: table[1].toLowerCase(), alias: table[2] });
      at = TABLE.lastIndex;
      LIST_NEXT.lastIndex = at;
      if ((keyword !== 'FROM' && keyword !== 'USING') || !LIST_NEXT.test(text)) break;
      at = LIST_NEXT.lastIndex;
    }
  }
  return found;
}

/** The public tables a statement names (occurrences'), each once. */
export function tablesOf(text: string): string[] {
  return [...new Set(occurrences(text).map(({ table }) => table))];
}

/**
 * How many comparisons of `<reference>.id_organization` (or of a bare one) to a value
 * of `key` the text makes, either way round.
 */
function bindings(text: string, values: unknown[], key: number, reference?: string): number {
  const column = reference
    ? `\\b"?${reference}"?\\."?id_organization"?`
    : `(?<![.\\w"])"?id_organization"?`;
  const compared = new RegExp(
    `${column}\\s*=\\s*\\$(\\d+)|\\$(\\d+)(?:::int8)?\\s*=\\s*${column}`,
    'g',
  );
  return [...text.matchAll(compared)].filter(
    ([, left, right]) => Number(values[Number(left ?? right) - 1]) === key,
  ).length;
}

/**
 * Whether an INSERT writes `key` into its `id_organization` column, in every row of its
 * VALUES (or, for an INSERT … SELECT, into a column the SELECT fills from a comparison).
 */
function insertBinds(text: string, values: unknown[], key: number, table: string): boolean {
  const into = new RegExp(
    `INTO\\s+(?:"?public"?\\.)?"?${table}"?(?:\\s+AS\\s+\\w+)?\\s*\\(([^)]*)\\)`,
    'i',
  );
  const columns = into
    .exec(text)?.[1]
    .split(',')
    .map((c) => c.trim().replace(/"/g, ''));
  const position = columns?.indexOf('id_organization') ?? -1;
  if (position < 0) return false;
  const rows = [
    ...text.matchAll(
      /\(((?:\$\d+(?:::[\w[\]"]+)?|DEFAULT)(?:\s*,\s*(?:\$\d+(?:::[\w[\]"]+)?|DEFAULT))*)\)/g,
    ),
  ]
    .map(([, tuple]) => tuple.split(',').map((cell) => cell.trim()))
    .filter((cells) => cells.length === columns!.length);
  if (rows.length > 0) {
    return rows.every((cells) => {
      const parameter = /^\$(\d+)/.exec(cells[position]);
      return parameter !== null && Number(values[Number(parameter[1]) - 1]) === key;
    });
  }
  // INSERT … SELECT: the rows come from a statement whose own tables are checked.
  return bindings(text, values, key) > 0 || values.some((value) => Number(value) === key);
}

/**
 * Why a statement's tenancy is wrong, if it is. Under a named system scope it may span
 * organizations. Otherwise each place it reads or changes an organization-owned table
 * must compare that table's `id_organization` (by its alias; unaliased, the bare column or
 * the table's) to the tenant's key, as many times as the reference is used; an INSERT
 * must write the key into its `id_organization` column.
 */
export function tenancyProblem(
  statement: SentStatement,
  tenancy: CallTenancy,
  organizationTables: ReadonlySet<string>,
): string | undefined {
  const owned = occurrences(statement.text).filter(({ table }) => organizationTables.has(table));
  if (owned.length === 0 || tenancy.kind === 'system') return undefined;
  const tables = [...new Set(owned.map(({ table }) => table))].join(', ');
  if (tenancy.kind === 'none') {
    return `touches ${tables} (organization-owned) and takes no tenant, scope or system scope`;
  }
  const { text, values } = statement;
  const key = tenancy.organizationKey;
  const unbound = new Set<string>();
  const uses = new Map<string, number>();
  for (const { keyword, table, alias } of owned) {
    const reference = alias ?? table;
    if (keyword === 'INTO') {
      if (!insertBinds(text, values, key, table)) unbound.add(table);
      continue;
    }
    const used = (uses.get(reference) ?? 0) + 1;
    uses.set(reference, used);
    const bound = alias
      ? bindings(text, values, key, alias)
      : bindings(text, values, key) + bindings(text, values, key, table);
    if (bound < used) unbound.add(alias ? `${table} ${alias}` : table);
  }
  if (unbound.size === 0) return undefined;
  return `touches ${[...unbound].join(', ')} (organization-owned) and does not bind its tenant's id_organization there`;
}

/** How the snapshot names the tenancy of a call that touches an organization's rows. */
export function describeTenancy(tenancy: Exclude<CallTenancy, { kind: 'none' }>): string {
  return tenancy.kind === 'tenant'
    ? 'bound to its tenant'
    : `across organizations, system scope ${tenancy.purpose}: ${SYSTEM_PURPOSES[tenancy.purpose]}`;
}

/** The tables of the migrated schema that carry `id_organization`: organization-owned. */
export const ORGANIZATION_TABLES = `SELECT table_name AS name FROM information_schema.columns
  WHERE table_schema = 'public' AND column_name = 'id_organization'`;

/** The snapshots' refusal of statements that could cross organizations. */
export function crossingError(problems: string[]): Error {
  return new Error(`Statements that could cross organizations:\n  ${problems.join('\n  ')}`);
}

/** What the repositories' pass found that a check of other statements needs. */
export interface TenancyContext {
  /** The statements of repository calls under a system scope, with its purpose. */
  systemTexts: Map<string, string>;
  /** The organization-owned tables. */
  owned: Set<string>;
}
