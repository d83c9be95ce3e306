import { BusinessUnit } from './business-unit.entity';
import { Organization } from './organization.entity';
import { Role } from './role.entity';
import { RoleFieldPermission } from './role-field-permission.entity';
import { RolePrivilege } from './role-privilege.entity';
import { User } from './user.entity';
import { UserRole } from './user-role.entity';

export { BusinessUnit, Organization, Role, RoleFieldPermission, RolePrivilege, User, UserRole };
export const DIRECTORY_ENTITIES = [
  Organization,
  BusinessUnit,
  User,
  UserRole,
  Role,
  RolePrivilege,
  RoleFieldPermission,
];
