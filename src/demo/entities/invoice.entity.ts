import { Column, Index, JoinColumn, ManyToOne } from 'typeorm';
import { SystemColumns } from '../../model/system-columns.entity';
import { BusinessEntity, ChildGroup, Computed, Label } from '../../model/entity.decorators';
import { Account } from './account.entity';
import { InvoiceLine } from './invoice-line.entity';

export const INVOICE_STATUSES = ['draft', 'issued', 'paid', 'cancelled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

@BusinessEntity('invoice')
@Index(['idOrganization', 'number'], { unique: true })
export class Invoice extends SystemColumns {
  /** Assigned when the invoice is issued, if not given before. */
  @Column({ type: 'varchar', length: 50, nullable: true })
  number: string | null;

  @Index()
  @Column({ type: 'bigint' })
  idAccount: number;

  @ManyToOne(() => Account, { nullable: false })
  @JoinColumn({ name: 'id_account' })
  account?: Account;

  @Column({ type: 'enum', enum: INVOICE_STATUSES, default: 'draft' })
  status: InvoiceStatus;

  @Label('Issued on')
  @Column({ type: 'timestamptz', nullable: true })
  issueDate: Date | null;

  @Column({ type: 'varchar', length: 3, nullable: true })
  currency: string | null;

  /** The sum of the lines' amounts (InvoiceHooks). */
  @Computed()
  @Column({ type: 'numeric', precision: 14, scale: 2, default: 0 })
  total: string;

  @ChildGroup(() => InvoiceLine)
  lines?: InvoiceLine[];
}
