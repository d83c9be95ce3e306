import { Column, Index, JoinColumn, ManyToOne } from 'typeorm';
import { SystemColumns } from '../../model/system-columns.entity';
import { BusinessEntity } from '../../model/entity.decorators';
import { Account } from './account.entity';

@BusinessEntity('contact')
export class Contact extends SystemColumns {
  @Column({ type: 'varchar', length: 100, nullable: true })
  firstName: string | null;

  @Column({ type: 'varchar', length: 100 })
  lastName: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  email: string | null;

  @Index()
  @Column({ type: 'bigint', nullable: true })
  idAccount: number | null;

  @ManyToOne(() => Account, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'id_account' })
  account?: Account;
}
