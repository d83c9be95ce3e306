import { Column, Index } from 'typeorm';
import { SystemColumns } from '../../model/system-columns.entity';
import { BusinessEntity, Label } from '../../model/entity.decorators';

@BusinessEntity('product')
@Index(['idOrganization', 'code'], { unique: true })
export class Product extends SystemColumns {
  @Label('Product code')
  @Column({ type: 'varchar', length: 50 })
  code: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name: string | null;

  @Column({ type: 'numeric', precision: 14, scale: 2, nullable: true })
  price: string | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;
}
