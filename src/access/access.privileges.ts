import type { Action, Depth } from './access.depth';

/** Who holds a privilege: administrators, or those who may do an action on a type. */
type PrivilegeRule =
  | 'administrators'
  | {
      /** Derived from what the type declares: who may do `action` on its records. */
      entity: string;
      action: Action;
      depth: Depth;
    };

interface PrivilegeDefinition {
  /** What it lets its holder do, as a sentence's end: "Only administrators may …". */
  lets: string;
  rule: PrivilegeRule;
}

/**
 * The system's capabilities beside what roles grant on entity types, each named and each
 * decided here (AccessScope.privilegeRefusal). A route that needs one says so with
 * `@Requires(name)` (requires.decorator.ts), which the guard enforces and the OpenAPI
 * document shows; code that needs one asks `holds(name)`.
 */
export const PRIVILEGES = {
  'manage-webhooks': {
    lets: 'manage webhooks: make them, rotate their secrets, send tests, read and replay their deliveries',
    // Who may change webhook records (the type's `write: 'admin'`).
    rule: { entity: 'webhook', action: 'write', depth: 'organization' },
  },
  'manage-jobs': {
    lets: "read and retry their organization's failed jobs",
    rule: 'administrators',
  },
  'purge-history': {
    lets: "erase a record's history",
    rule: 'administrators',
  },
  'read-audit': {
    lets: "read the organization's security events (sign-ins, keys, roles) in the histories",
    // Who reads the whole organization's change log: a grant made on purpose (by name).
    rule: { entity: 'change_log', action: 'read', depth: 'organization' },
  },
  'correct-records': {
    lets: "set what a workflow or a hook keeps to itself (an invoice's status), to import or correct records",
    rule: 'administrators',
  },
} as const satisfies Record<string, PrivilegeDefinition>;

export type Privilege = keyof typeof PRIVILEGES;

export const PRIVILEGE_NAMES = Object.keys(PRIVILEGES) as Privilege[];

/** Who holds it, in words: "administrators", "those who may read change_log records at…". */
export function holdersOf(privilege: Privilege): string {
  const { rule } = PRIVILEGES[privilege] as PrivilegeDefinition;
  if (rule === 'administrators') return 'administrators';
  return `those who may ${rule.action} ${rule.entity} records at ${rule.depth} depth`;
}
