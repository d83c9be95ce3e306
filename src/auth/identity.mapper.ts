import { Identity } from '../common/identity';
import { UserRow } from '../directory/user.repository';

/** The user fields an identity is made of; SQL that reads them aliases to these names. */
export type IdentityUser = Pick<
  UserRow,
  'key' | 'userName' | 'fullName' | 'idOrganization' | 'idBusinessUnit' | 'isAdmin'
>;

/** The select list of IdentityUser for a query joining `"user" u`. */
export const IDENTITY_USER_COLUMNS = `u.key, u.user_name AS "userName", u.full_name AS "fullName",
  u.id_organization AS "idOrganization", u.id_business_unit AS "idBusinessUnit", u.is_admin AS "isAdmin"`;

export function identityOf(
  user: IdentityUser,
  authMethod: Identity['authMethod'],
  locale: string,
  session?: Identity['session'],
): Identity {
  return {
    userKey: user.key,
    userName: user.userName,
    userFullName: user.fullName,
    organizationKey: user.idOrganization,
    businessUnitKey: user.idBusinessUnit,
    isAdmin: user.isAdmin,
    locale,
    authMethod,
    ...(session ? { session } : {}),
  };
}
