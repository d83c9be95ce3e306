import { EntityHooks, HookContext } from '../../data/entity-hooks';
import { BusinessRuleError } from '../../entity/entity.errors';

@EntityHooks('account')
export class AccountHooks {
  /**
   * Counts the invoices the caller may read; one it may not still holds the account
   * (a foreign key), and the delete fails as a conflict instead.
   */
  async onBeforeDelete({ stored, data }: HookContext): Promise<void> {
    const { rows } = await data.fetch({
      entity: 'invoice',
      properties: [{ property: '*', aggregate: 'count', alias: 'invoices' }],
      filter: [
        {
          type: 'And',
          conditions: [
            { property: 'id_account', operator: 'eq', value: stored!.properties.key as number },
          ],
        },
      ],
    });
    const invoices = Number(rows[0].invoices);
    if (invoices > 0) {
      throw new BusinessRuleError(`The account has ${invoices} invoice(s) and cannot be deleted`, {
        propertyName: 'key',
      });
    }
  }
}
