import { Column, Index } from 'typeorm';
import { BusinessEntity } from '../../entity/entity.decorators';
import { SystemColumns } from '../../common/system-columns.entity';

@BusinessEntity('organization', { write: 'nobody' })
export class Organization extends SystemColumns {
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 200 })
  name: string;
}
