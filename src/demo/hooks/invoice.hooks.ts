import Big from 'big.js';
import { EntityHooks } from '../../entity/entity.decorators';
import { HookContext } from '../../entity/entity-hooks';
import { BusinessRuleError } from '../../entity/entity.errors';

export const LINES = 'invoice_invoice_line';

@EntityHooks('invoice')
export class InvoiceHooks {
  onBeforeInsert({ entity }: HookContext): void {
    entity.properties.total = totalOf(entity.children[LINES] ?? []);
  }

  onBeforeUpdate({ entity, stored }: HookContext): void {
    assertDraft(stored!.properties.status, 'updated');
    entity.properties.total = totalOf(entity.children[LINES] ?? []);
  }

  onBeforeDelete({ stored }: HookContext): void {
    assertDraft(stored!.properties.status, 'deleted');
  }
}

function assertDraft(status: unknown, action: string): void {
  if (status !== 'draft') {
    throw new BusinessRuleError(
      `Only a draft invoice may be ${action}; this one is ${String(status)}`,
      {
        propertyName: 'status',
      },
    );
  }
}

/** The lines' amounts were computed by InvoiceLineHooks, which run first. */
function totalOf(lines: { properties: Record<string, unknown> }[]): string {
  return lines
    .reduce((sum, line) => sum.plus(String(line.properties.amount)), new Big(0))
    .toFixed(2);
}
