import { AccessService } from '../access/access.service';
import { EntityHooks, HookContext } from '../data/entity-hooks';
import { BusinessRuleError } from '../entity/entity.errors';
import { OrganizationRepository } from './organization.repository';

/**
 * A unit cannot be placed under itself or under a unit below it. A unit's place decides
 * which records the depth `business_unit_tree` reaches: cached scopes are forgotten at
 * commit.
 */
@EntityHooks('business_unit')
export class BusinessUnitHooks {
  constructor(
    private readonly access: AccessService,
    private readonly organizations: OrganizationRepository,
  ) {}

  onBeforeInsert({ data }: HookContext): void {
    this.access.forgetAtCommit(data.transaction);
  }

  async onBeforeUpdate({ entity, stored, data }: HookContext): Promise<void> {
    const parent = entity.properties.id_parent_business_unit as number | null;
    if (parent !== null && parent !== stored!.properties.id_parent_business_unit) {
      const organization = entity.properties.id_organization as number;
      // Two moves at once could each see no cycle and make one together.
      await data.lockUntilTransactionEnds(`business_unit.parent:${organization}`);
      const unit = entity.properties.key as number;
      if (await this.organizations.isAtOrAbove(data.tenant, unit, parent, data.transaction)) {
        throw new BusinessRuleError(
          `Business unit ${parent} is this unit or below it: the units would form a cycle`,
          { propertyName: 'id_parent_business_unit' },
        );
      }
    }
    this.access.forgetAtCommit(data.transaction);
  }

  onBeforeDelete({ data }: HookContext): void {
    this.access.forgetAtCommit(data.transaction);
  }
}
