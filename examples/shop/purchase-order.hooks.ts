import { BusinessRuleError, EntityHooks, HookContext } from '../../src/atrium';

@EntityHooks('purchase_order')
export class PurchaseOrderHooks {
  onBeforeInsert({ entity }: HookContext) {
    const items = entity.children.purchase_order_purchase_order_item ?? [];
    // A failing rule is the 424 record, naming the property.
    if (items.length === 0) {
      throw new BusinessRuleError('An order needs items', { propertyName: 'reference' });
    }
    entity.properties.item_count = items.length;
  }
}
