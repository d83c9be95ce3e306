import { Column, Index, JoinColumn, ManyToOne } from 'typeorm';
import { SystemColumns } from '../../model/system-columns.entity';
import { BusinessEntity } from '../../model/entity.decorators';
import type { Role } from './role.entity';

/**
 * Whether a role's holders may read and update one secured property. A child of `role`,
 * group `role_role_field_permission`.
 */
@BusinessEntity('role_field_permission', { write: 'admin', securityEvent: 'privileges_changed' })
@Index(['idRole', 'entityName', 'property'], { unique: true })
export class RoleFieldPermission extends SystemColumns {
  @Column({ type: 'bigint' })
  idRole: number;

  @ManyToOne('Role', { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id_role' })
  role?: Role;

  @Column({ type: 'varchar', length: 100 })
  entityName: string;

  @Column({ type: 'varchar', length: 100 })
  property: string;

  @Column({ type: 'boolean', default: false })
  read: boolean;

  @Column({ type: 'boolean', default: false })
  update: boolean;
}
