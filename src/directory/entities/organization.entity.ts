import { Column, Index } from 'typeorm';
import { BusinessEntity } from '../../model/entity.decorators';
import { SystemColumns } from '../../model/system-columns.entity';

@BusinessEntity('organization', { write: 'nobody' })
export class Organization extends SystemColumns {
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 200 })
  name: string;
}
