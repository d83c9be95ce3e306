import { Column, Index, JoinColumn, ManyToOne } from 'typeorm';
import { SystemColumns } from '../../model/system-columns.entity';
import { BusinessEntity } from '../../model/entity.decorators';
import { DEPTHS, Depth } from '../../access/access.depth';
import type { Role } from './role.entity';

const depthColumn = {
  type: 'enum',
  enum: DEPTHS,
  enumName: 'access_depth',
  default: 'none',
} as const;

/**
 * How far a role reaches for one entity type (`*`: every type the role names no other
 * row for), per action. A child of `role`, group `role_role_privilege`.
 */
@BusinessEntity('role_privilege', { write: 'admin', securityEvent: 'privileges_changed' })
@Index(['idRole', 'entityName'], { unique: true })
export class RolePrivilege extends SystemColumns {
  @Column({ type: 'bigint' })
  idRole: number;

  @ManyToOne('Role', { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id_role' })
  role?: Role;

  @Column({ type: 'varchar', length: 100 })
  entityName: string;

  @Column(depthColumn)
  create: Depth;

  @Column(depthColumn)
  read: Depth;

  @Column(depthColumn)
  write: Depth;

  @Column(depthColumn)
  delete: Depth;
}
