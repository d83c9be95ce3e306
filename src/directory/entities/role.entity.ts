import { Column, Index } from 'typeorm';
import { SystemColumns } from '../../model/system-columns.entity';
import { BusinessEntity, ChildGroup } from '../../model/entity.decorators';
import { RoleFieldPermission } from './role-field-permission.entity';
import { RolePrivilege } from './role-privilege.entity';

/**
 * A security role: what its holders may do with each entity type (`role_role_privilege`)
 * and which secured properties they may read or update (`role_role_field_permission`).
 */
@BusinessEntity('role', { write: 'admin' })
@Index(['idOrganization', 'name'], { unique: true })
export class Role extends SystemColumns {
  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  @ChildGroup(() => RolePrivilege)
  privileges?: RolePrivilege[];

  @ChildGroup(() => RoleFieldPermission)
  fieldPermissions?: RoleFieldPermission[];
}
