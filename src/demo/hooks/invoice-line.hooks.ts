import Big from 'big.js';
import { EntityHooks, HookContext } from '../../data/entity-hooks';
import { BusinessRuleError } from '../../entity/entity.errors';

@EntityHooks('invoice_line')
export class InvoiceLineHooks {
  onBeforeInsert(context: HookContext): void {
    this.computeAmount(context);
  }

  onBeforeUpdate(context: HookContext): void {
    this.computeAmount(context);
  }

  /** A line needs a positive quantity; its amount is quantity × unit price, exactly. */
  private computeAmount({ entity }: HookContext): void {
    const { quantity, unit_price: unitPrice } = entity.properties;
    if (typeof quantity !== 'number' || quantity <= 0) {
      throw new BusinessRuleError('The quantity must be greater than 0', {
        propertyName: 'quantity',
      });
    }
    entity.properties.amount = new Big(String(unitPrice)).times(quantity).toFixed(2);
  }
}
