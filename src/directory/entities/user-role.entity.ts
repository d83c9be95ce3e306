import { Column, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { User } from './user.entity';
import { SystemColumns } from '../../model/system-columns.entity';
import { BusinessEntity } from '../../model/entity.decorators';
import { Role } from './role.entity';

/**
 * A role a user holds: a child of `user`, group `user_user_role`. Its link to the user is
 * `id_parent_user`, since `id_user` is the owner column every row carries.
 */
@BusinessEntity('user_role', { write: 'admin', securityEvent: 'roles_changed' })
@Index(['idParentUser', 'idRole'], { unique: true })
export class UserRole extends SystemColumns {
  @Column({ type: 'bigint' })
  idParentUser: number;

  @ManyToOne('User', { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id_parent_user' })
  parentUser?: User;

  @Index()
  @Column({ type: 'bigint' })
  idRole: number;

  @ManyToOne(() => Role, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id_role' })
  role?: Role;
}
