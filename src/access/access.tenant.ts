import type { Identity } from '../common/identity';

/** The mark only access/ puts on a tenant or a system scope: no other file can spell it. */
const ISSUED: unique symbol = Symbol('issued by access/');

/**
 * The organization a statement is bound to. A repository method on an organization-owned
 * table takes one (or the AccessScope, which has the caller's) and binds its key itself;
 * a method without one does not compile. Every tenant is made here, from a caller (its
 * scope's, tenantOf(identity)) or by a named system scope for an organization it acts for
 * (a job's, a new organization's): each of those calls is one a review can find.
 */
export interface Tenant {
  readonly organizationKey: number;
  readonly [ISSUED]: 'tenant';
}

/**
 * Why a statement may span organizations, named so that a review can find every one:
 * `grep -rn "systemScope('"`. Each purpose is one of these: a new one is added here.
 */
export const SYSTEM_PURPOSES = {
  /** Signing in: a user name or an OpenID subject names no organization. */
  'sign-in': 'a sign-in looks the user up before any organization is known',
  /** The admin CLI and the first boot: organizations, their units, their admins. */
  setup: 'the admin CLI and the first boot make and find organizations, units and users',
  /** The events' dispatcher: every organization's committed writes, in order. */
  'event-dispatch': "the events' dispatcher reads every organization's change log",
  /** The change log's writer and keeper: each entry carries its record's owner; a month's
   * partition holds every organization's entries. */
  'change-log':
    "the change log's writer writes each entry with its record's owner, and its partitions hold every organization's",
  /** Webhook deliveries: the queue's jobs of every organization. */
  'webhook-delivery': 'webhook deliveries are worked from one queue for every organization',
  /** A job's run: its sender, of the organization the job names. */
  jobs: 'a job runs as its sender, whose organization the job names',
  /** The storage sweep: bytes no version of any organization names. */
  'file-sweep': 'the storage sweep looks for bytes no version of any organization names',
} as const;

export type SystemPurpose = keyof typeof SYSTEM_PURPOSES;

/** A statement's license to span organizations, for one named purpose. */
export interface SystemScope {
  readonly purpose: SystemPurpose;
  readonly [ISSUED]: 'system';
  /** The tenant of one organization the purpose acts for (a job's, a delivery's). */
  tenant(organizationKey: number): Tenant;
}

/** For access/ only (the lint refuses it elsewhere): a caller's tenant. */
export function issueTenant(organizationKey: number): Tenant {
  return { organizationKey, [ISSUED]: 'tenant' };
}

/**
 * The tenant of an authenticated caller (or of the user a job or the CLI acts for): its
 * organization's, as its AccessScope's is. For the repository calls of a service that has
 * the caller's Identity and no scope.
 */
export function tenantOf(identity: Identity): Tenant {
  return issueTenant(identity.organizationKey);
}

/** A named system scope: what the few statements spanning organizations take. */
export function systemScope(purpose: SystemPurpose): SystemScope {
  return { purpose, [ISSUED]: 'system', tenant: issueTenant };
}

/** Whether a value is a tenant or a system scope (the SQL snapshots' check reads it). */
export function issuedBy(value: unknown): 'tenant' | 'system' | undefined {
  if (typeof value !== 'object' || value === null || !(ISSUED in value)) return undefined;
  return (value as { [ISSUED]: 'tenant' | 'system' })[ISSUED];
}
