import { Column, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BusinessEntity } from '../../model/entity.decorators';
import { SystemColumns } from '../../model/system-columns.entity';

@BusinessEntity('business_unit', { write: 'admin' })
@Index(['idOrganization', 'name'], { unique: true })
export class BusinessUnit extends SystemColumns {
  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** The unit above this one; null for a root. A unit's tree is it and every unit below. */
  @Index()
  @Column({ type: 'bigint', nullable: true })
  idParentBusinessUnit: number | null;

  @ManyToOne(() => BusinessUnit, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'id_parent_business_unit' })
  parentBusinessUnit?: BusinessUnit;
}
