import { EntityHooks } from '../../entity/entity.decorators';
import { HookContext } from '../../entity/entity-hooks';
import { BusinessRuleError } from '../../entity/entity.errors';
import { Invoice } from '../entities';

@EntityHooks('account')
export class AccountHooks {
  async onBeforeDelete({ stored, manager }: HookContext): Promise<void> {
    const invoices = await manager.getRepository(Invoice).countBy({
      idAccount: stored!.properties.key as number,
      idOrganization: stored!.properties.id_organization as number,
    });
    if (invoices > 0) {
      throw new BusinessRuleError(`The account has ${invoices} invoice(s) and cannot be deleted`, {
        propertyName: 'key',
      });
    }
  }
}
