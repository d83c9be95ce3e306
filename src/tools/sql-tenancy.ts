import { AccessScope } from '../access/access.scope';
import { issuedBy, SystemScope, Tenant } from '../access/access.tenant';
import type { SentStatement } from '../database/sql-snapshot';

/** What a repository call is bound to, read from its arguments. */
export type CallTenancy =
  | { kind: 'tenant'; organizationKey: number }
  | { kind: 'system'; purpose: string }
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

/** The public tables a statement names after FROM, JOIN, INTO or UPDATE. */
export function tablesOf(text: string): string[] {
  // A name right before "(" or "." is a function's or a schema's (unnest(…), pgboss.job).
  const named = /\b(?:FROM|JOIN|INTO|UPDATE)\s+(?:ONLY\s+)?"?([a-z_][a-z0-9_]*)\b"?(?![.(])/gi;
  return [...new Set([...text.matchAll(named)].map((match) => match[1].toLowerCase()))];
}

/** Words that follow a table where no alias does. */
const NOT_ALIASES = new Set(
  'where on set join left right inner full cross order group limit values select returning using for union with and or as natural'.split(
    ' ',
  ),
);

/** Each place a statement reads or changes a table: the keyword, the table, its alias. */
function occurrences(text: string): { keyword: string; table: string; alias?: string }[] {
  const place =
    /\b(FROM|JOIN|INTO|UPDATE)\s+(?:ONLY\s+)?"?([a-z_][a-z0-9_]*)\b"?(?![.(])(?:\s+(?:AS\s+)?([a-z_][a-z0-9_]*)\b)?/gi;
  return [...text.matchAll(place)].map(([, keyword, table, alias]) => ({
    keyword: keyword.toUpperCase(),
    table: table.toLowerCase(),
    alias: alias && !NOT_ALIASES.has(alias.toLowerCase()) ? alias : undefined,
  }));
}

/** Whether `text` compares `<reference>.id_organization` (or a bare one) to a value of `key`. */
function boundAt(text: string, values: unknown[], key: number, reference?: string): boolean {
  const column = reference
    ? `\\b${reference}\\."?id_organization"?`
    : `(?<![.\\w"])"?id_organization"?`;
  const comparisons = new RegExp(`${column}\\s*=\\s*\\$(\\d+)`, 'g');
  return [...text.matchAll(comparisons)].some(([, n]) => Number(values[Number(n) - 1]) === key);
}

/**
 * Why a statement's tenancy is wrong, if it is. Under a named system scope it may span
 * organizations. Otherwise each place it reads or changes an organization-owned table must
 * compare that table's `id_organization` (by its alias, or a bare column) to the tenant's
 * key; an INSERT must write the key into an `id_organization` column.
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
  const unbound = owned.filter(({ keyword, table, alias }) =>
    keyword === 'INTO'
      ? !/\bid_organization\b/.test(text) || !values.some((value) => Number(value) === key)
      : alias
        ? !boundAt(text, values, key, alias)
        : !boundAt(text, values, key) && !boundAt(text, values, key, table),
  );
  if (unbound.length === 0) return undefined;
  const where = unbound.map(({ table, alias }) => (alias ? `${table} ${alias}` : table));
  return `touches ${where.join(', ')} (organization-owned) and does not bind its tenant's id_organization there`;
}

/** How the snapshot names a call's tenancy, for review. */
export function describeTenancy(tenancy: CallTenancy): string {
  switch (tenancy.kind) {
    case 'tenant':
      return 'bound to its tenant';
    case 'system':
      return `across organizations: system scope ${tenancy.purpose}`;
    case 'none':
      return 'no tenant (no organization-owned table)';
  }
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
