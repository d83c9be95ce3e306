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

/**
 * Why a statement's tenancy is wrong, if it is: one that touches an organization-owned
 * table must come from a call bound to a tenant, and bind it (name `id_organization` and
 * send the tenant's key), or from a call under a named system scope.
 */
export function tenancyProblem(
  statement: SentStatement,
  tenancy: CallTenancy,
  organizationTables: ReadonlySet<string>,
): string | undefined {
  const owned = tablesOf(statement.text).filter((table) => organizationTables.has(table));
  if (owned.length === 0 || tenancy.kind === 'system') return undefined;
  if (tenancy.kind === 'none') {
    return `touches ${owned.join(', ')} (organization-owned) and takes no tenant, scope or system scope`;
  }
  const binds =
    /\bid_organization\b/.test(statement.text) &&
    statement.values.some((value) => Number(value) === tenancy.organizationKey);
  return binds
    ? undefined
    : `touches ${owned.join(', ')} (organization-owned) and does not bind its tenant's id_organization`;
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
