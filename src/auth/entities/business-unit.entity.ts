import { Column, Index } from 'typeorm';
import { BusinessEntity } from '../../entity/entity.decorators';
import { SystemColumns } from '../../common/system-columns.entity';

@BusinessEntity('business_unit', { write: 'admin' })
@Index(['idOrganization', 'name'], { unique: true })
export class BusinessUnit extends SystemColumns {
  @Column({ type: 'varchar', length: 200 })
  name: string;
}
