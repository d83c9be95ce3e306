import Big from 'big.js';
import { EntityHooks, HookContext } from '../../data/entity-hooks';
import { BusinessRuleError } from '../../entity/entity.errors';

export const LINES = 'invoice_invoice_line';

/**
 * An invoice starts as a draft and its status moves through a workflow
 * (`invoicing.issue`), which numbers and dates it. Holders of `correct-records`
 * (administrators) may set any status: importing past invoices (the demo seed does) or
 * correcting one is theirs to do.
 */
@EntityHooks('invoice')
export class InvoiceHooks {
  onBeforeInsert({ entity, workflow, data }: HookContext): void {
    const { status = 'draft' } = entity.properties;
    if (status !== 'draft' && !data.access.holds('correct-records') && !workflow) {
      throw new BusinessRuleError(
        `A new invoice is a draft, not ${String(status)}: its status moves through the invoicing workflow`,
        { propertyName: 'status' },
      );
    }
    entity.properties.total = totalOf(entity.children[LINES] ?? []);
  }

  onBeforeUpdate({ entity, stored, workflow, data }: HookContext): void {
    const before = stored!.properties.status;
    assertDraft(before, 'updated');
    const after = entity.properties.status;
    if (after !== before && !data.access.holds('correct-records') && !workflow) {
      throw new BusinessRuleError(
        `The status moves from ${String(before)} to ${String(after)} through the invoicing workflow, not by an update`,
        { propertyName: 'status' },
      );
    }
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
