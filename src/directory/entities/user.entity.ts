import { Column, Index } from 'typeorm';
import { UserRole } from './user-role.entity';
import { BusinessEntity, ChildGroup, Computed } from '../../model/entity.decorators';
import { SystemColumns } from '../../model/system-columns.entity';

@BusinessEntity('user', {
  write: 'admin',
  writeOnly: ['password'],
  // Administrators hold every right: making or unmaking one is the audit's business.
  securityProperties: { is_admin: 'roles_changed' },
})
@Index(['oidcIssuer', 'oidcSubject'], { unique: true, where: 'oidc_subject IS NOT NULL' })
export class User extends SystemColumns {
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 100 })
  userName: string;

  @Column({ type: 'varchar', length: 200 })
  fullName: string;

  /** scrypt hash (see password-hasher.ts); never leaves the server. */
  @Column({ type: 'varchar', length: 200, nullable: true, select: false })
  passwordHash: string | null;

  @Column({ type: 'boolean', default: false })
  isAdmin: boolean;

  @Column({ type: 'varchar', length: 10, default: 'RO' })
  locale: string;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  /** The OpenID issuer and subject this user signs in as; set by sign-in, never by a client. */
  @Computed()
  @Column({ type: 'varchar', length: 500, nullable: true })
  oidcIssuer: string | null;

  @Computed()
  @Column({ type: 'varchar', length: 255, nullable: true })
  oidcSubject: string | null;

  /** The roles the user holds (group `user_user_role`). */
  @ChildGroup(() => UserRole)
  roles?: UserRole[];
}
