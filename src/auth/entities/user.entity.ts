import { Column, Index } from 'typeorm';
import { BusinessEntity } from '../../entity/entity.decorators';
import { SystemColumns } from '../../common/system-columns.entity';

@BusinessEntity('user', { write: 'admin', writeOnly: ['password'] })
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
}
