import type { Identity } from '../common/identity';
import { Grants } from './access.grants';
import { AccessScope } from './access.scope';

const CALLER = { userKey: 1, organizationKey: 1, businessUnitKey: 1 } as Identity;

/**
 * Callers for the SQL snapshots (`@GenerateSql`) of repositories whose statements carry
 * an access scope: an administrator, and a user whose role reaches its own records.
 */
export const SAMPLE_SCOPES = {
  administrator: new AccessScope(CALLER, 'administrator', []),
  ownRecords: (entityName: string) =>
    new AccessScope(
      CALLER,
      new Grants(
        [
          {
            id_role: 1,
            entity_name: entityName,
            create: 'user',
            read: 'user',
            write: 'user',
            delete: 'user',
          },
        ],
        [],
      ),
      [CALLER.businessUnitKey],
    ),
};

/** The tenant of the SQL snapshots' organization (1), for repositories that take one. */
export const SAMPLE_TENANT = SAMPLE_SCOPES.administrator.tenant;
