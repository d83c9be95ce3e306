import { Column, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BusinessEntity, ChildGroup, Computed, SystemColumns } from '../../src/atrium';

@BusinessEntity('purchase_order')
export class PurchaseOrder extends SystemColumns {
  @Column({ type: 'varchar', length: 50 })
  reference: string;

  @Column({ type: 'boolean', default: false })
  closed: boolean;

  /** Set by the hook: the number of items. */
  @Computed()
  @Column({ type: 'integer', default: 0 })
  itemCount: number;

  /** Child group `purchase_order_purchase_order_item`. */
  @ChildGroup(() => PurchaseOrderItem)
  items?: PurchaseOrderItem[];
}

@BusinessEntity('purchase_order_item')
export class PurchaseOrderItem extends SystemColumns {
  /** The parent: a child type has a many-to-one named `id_<parent>`. */
  @Index()
  @Column({ type: 'bigint' })
  idPurchaseOrder: number;

  @ManyToOne(() => PurchaseOrder, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id_purchase_order' })
  purchaseOrder?: PurchaseOrder;

  @Column({ type: 'integer' })
  quantity: number;
}
