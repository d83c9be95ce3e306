import { Column } from 'typeorm';
import { SystemColumns } from '../../model/system-columns.entity';
import { BusinessEntity, Secured } from '../../model/entity.decorators';

@BusinessEntity('account', { label: 'Customer account' })
export class Account extends SystemColumns {
  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  country: string | null;

  /** Only roles granting it read or change a customer's credit limit. */
  @Secured()
  @Column({ type: 'numeric', precision: 14, scale: 2, nullable: true })
  creditLimit: string | null;
}
