import type { Identity } from '../common/identity';
import type { EntityType } from '../model/entity-type';
import { Depth } from './access.depth';
import { Grants, PrivilegeRow } from './access.grants';
import { Privilege, PRIVILEGE_NAMES } from './access.privileges';
import { AccessScope } from './access.scope';

const CALLER = { userKey: 7, organizationKey: 1, businessUnitKey: 2 } as Identity;

/** The types privileges derive from, declared as the app declares them. */
const TYPES: Record<string, Partial<EntityType>> = {
  webhook: { write: 'admin', privileges: true, grantedByName: true },
  change_log: { write: 'nobody', privileges: true, grantedByName: true },
};
const typeNamed = (name: string) =>
  TYPES[name] && ({ name, parent: undefined, ...TYPES[name] } as EntityType);

const administrator = new AccessScope(CALLER, 'administrator', [], typeNamed);
/** A member whose one role grants `depth` on every action of `entity`, by name. */
const member = (entity?: string, depth: Depth = 'organization') => {
  const rows: (PrivilegeRow & { id_role: number })[] = entity
    ? [{ id_role: 1, entity_name: entity, create: depth, read: depth, write: depth, delete: depth }]
    : [];
  return new AccessScope(CALLER, new Grants(rows, [], ['role']), [2], typeNamed);
};

describe('the named privileges', () => {
  it('are held by administrators, every one', () => {
    for (const privilege of PRIVILEGE_NAMES) expect(administrator.holds(privilege)).toBe(true);
  });

  it('are held by no member whose roles grant nothing', () => {
    for (const privilege of PRIVILEGE_NAMES) expect(member().holds(privilege)).toBe(false);
  });

  it.each([
    ['manage-jobs', "Only administrators may read and retry their organization's failed jobs"],
    ['purge-history', "Only administrators may erase a record's history"],
    [
      'correct-records',
      "Only administrators may set what a workflow or a hook keeps to itself (an invoice's status), to import or correct records",
    ],
  ] as [Privilege, string][])(
    '%s: administrators only, whatever a role grants',
    (privilege, refusal) => {
      const granted = member('*');
      expect(granted.holds(privilege)).toBe(false);
      expect(granted.privilegeRefusal(privilege)).toBe(refusal);
    },
  );

  describe('manage-webhooks, derived from webhook’s write: admin', () => {
    it('is not given by a role granting webhook by name: only administrators change webhooks', () => {
      const granted = member('webhook');
      expect(granted.holds('manage-webhooks')).toBe(false);
      expect(granted.privilegeRefusal('manage-webhooks')).toBe(
        'Only administrators may change webhook',
      );
    });

    it('follows the type: were webhooks written by role, the role would give it', () => {
      const byRole = (name: string) =>
        name === 'webhook'
          ? ({
              name,
              write: 'everyone',
              privileges: true,
              grantedByName: true,
            } as EntityType)
          : undefined;
      const rows = [
        {
          id_role: 1,
          entity_name: 'webhook',
          create: 'organization',
          read: 'organization',
          write: 'organization',
          delete: 'none',
        } as const,
      ];
      const scope = new AccessScope(CALLER, new Grants([...rows], [], ['role']), [2], byRole);
      expect(scope.holds('manage-webhooks')).toBe(true);
    });
  });

  describe('read-audit, derived from reading the change log organization-wide', () => {
    it('is given by a role granting change_log read at organization depth, by name', () => {
      expect(member('change_log').holds('read-audit')).toBe(true);
    });

    it('is not given at a narrower depth, nor by a role’s * row', () => {
      expect(member('change_log', 'business_unit_tree').holds('read-audit')).toBe(false);
      expect(member('*').holds('read-audit')).toBe(false);
      expect(member('change_log', 'user').privilegeRefusal('read-audit')).toBe(
        "Only those who may read change_log records at organization depth may read the organization's security events (sign-ins, keys, roles) in the histories",
      );
    });
  });
});
