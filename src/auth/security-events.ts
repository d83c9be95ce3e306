import { Actor, ChangeEntry, SECURITY_OPERATIONS } from '../changes/change-log.service';
import type { Identity } from '../common/identity';
import type { UserRow } from '../directory/user.repository';

type SecurityOperation = (typeof SECURITY_OPERATIONS)[number];

/** The user a security event is about, as the change log names it. */
export type EventUser = Pick<UserRow, 'key' | 'userName' | 'idOrganization' | 'idBusinessUnit'>;

/**
 * An event about a user, on the user's record, owned as what the user owns (its
 * organization, unit and itself): who may read that organization's change log sees it,
 * and a user granted read at user depth sees its own.
 */
export function userEvent(
  operation: SecurityOperation,
  user: EventUser | undefined,
  detail: Record<string, unknown>,
): ChangeEntry {
  return {
    operation,
    entity: 'user',
    recordKey: user?.key ?? null,
    owner: user
      ? {
          organizationKey: user.idOrganization,
          businessUnitKey: user.idBusinessUnit,
          userKey: user.key,
        }
      : null,
    detail,
  };
}

/** The user acting on their own sign-in, through `via`. */
export function actorOfUser(
  user: Pick<UserRow, 'key' | 'userName'> | undefined,
  via: string,
  requestId: string | undefined,
  triedName?: string,
): Actor {
  return {
    userKey: user?.key ?? null,
    userName: user?.userName ?? triedName ?? null,
    via,
    requestId,
  };
}

/** The user of an identity, as an event names it. */
export function userOf(identity: Identity): EventUser {
  return {
    key: identity.userKey,
    userName: identity.userName,
    idOrganization: identity.organizationKey,
    idBusinessUnit: identity.businessUnitKey,
  };
}
