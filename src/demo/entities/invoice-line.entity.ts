import { Column, Index, JoinColumn, ManyToOne } from 'typeorm';
import { SystemColumns } from '../../model/system-columns.entity';
import { BusinessEntity, Computed } from '../../model/entity.decorators';
import type { Invoice } from './invoice.entity';
import { Product } from './product.entity';

/** A child of `invoice`: its group is `invoice_invoice_line`. */
@BusinessEntity('invoice_line')
export class InvoiceLine extends SystemColumns {
  @Index()
  @Column({ type: 'bigint' })
  idInvoice: number;

  @ManyToOne('Invoice', { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id_invoice' })
  invoice?: Invoice;

  @Index()
  @Column({ type: 'bigint', nullable: true })
  idProduct: number | null;

  @ManyToOne(() => Product)
  @JoinColumn({ name: 'id_product' })
  product?: Product;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  @Column({ type: 'integer' })
  quantity: number;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  unitPrice: string;

  /** quantity × unit_price (InvoiceLineHooks). */
  @Computed()
  @Column({ type: 'numeric', precision: 14, scale: 2, default: 0 })
  amount: string;
}
