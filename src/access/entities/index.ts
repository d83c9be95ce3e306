import { Role } from './role.entity';
import { RoleFieldPermission } from './role-field-permission.entity';
import { RolePrivilege } from './role-privilege.entity';
import { UserRole } from './user-role.entity';

export { Role, RoleFieldPermission, RolePrivilege, UserRole };
export const ACCESS_ENTITIES = [Role, RolePrivilege, RoleFieldPermission, UserRole];
