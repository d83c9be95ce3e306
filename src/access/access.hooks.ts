import { EntityHooks } from '../entity/entity.decorators';
import { HookContext } from '../entity/entity-hooks';
import { EntityRegistry } from '../entity/entity.registry';
import { BusinessRuleError } from '../entity/entity.errors';
import { markAccessChanged } from './access.changes';
import { EVERY_TYPE } from './access.grants';

/** Any write to these types changes who may do what: cached scopes are forgotten at commit. */
class AccessChangingHooks {
  onBeforeInsert(context: HookContext): unknown {
    return this.changed(context);
  }

  onBeforeUpdate(context: HookContext): unknown {
    return this.changed(context);
  }

  onBeforeDelete(context: HookContext): unknown {
    return this.changed(context);
  }

  protected changed({ data }: HookContext): unknown {
    markAccessChanged(data.unscopedManager);
    return undefined;
  }
}

@EntityHooks('role')
export class RoleHooks extends AccessChangingHooks {}

@EntityHooks('user_role')
export class UserRoleHooks extends AccessChangingHooks {}

/**
 * A privilege names a type roles govern (a top-level one: children follow their parent).
 * Checked where a name is written, not on delete or an unchanged row: a role whose type
 * an application later removed can still be edited and deleted.
 */
@EntityHooks('role_privilege')
export class RolePrivilegeHooks extends AccessChangingHooks {
  constructor(private readonly registry: EntityRegistry) {
    super();
  }

  override onBeforeInsert(context: HookContext): unknown {
    this.check(context);
    return super.onBeforeInsert(context);
  }

  override onBeforeUpdate(context: HookContext): unknown {
    if (namesChanged(context, ['entity_name'])) this.check(context);
    return super.onBeforeUpdate(context);
  }

  private check(context: HookContext): void {
    const name = context.entity.properties.entity_name as string;
    const type = this.registry.find(name);
    if (name !== EVERY_TYPE && (!type || type.parent || !type.privileges)) {
      const governed = this.registry.all().filter((t) => t.privileges && !t.parent);
      throw new BusinessRuleError(
        `"${name}" is not an entity type roles govern: one of ${[EVERY_TYPE, ...governed.map((t) => t.name)].join(', ')}`,
        { propertyName: 'entity_name' },
      );
    }
  }
}

/** A field permission names a secured property (checked as a privilege's type is). */
@EntityHooks('role_field_permission')
export class RoleFieldPermissionHooks extends AccessChangingHooks {
  constructor(private readonly registry: EntityRegistry) {
    super();
  }

  override onBeforeInsert(context: HookContext): unknown {
    this.check(context);
    return super.onBeforeInsert(context);
  }

  override onBeforeUpdate(context: HookContext): unknown {
    if (namesChanged(context, ['entity_name', 'property'])) this.check(context);
    return super.onBeforeUpdate(context);
  }

  private check(context: HookContext): void {
    const { entity_name: entityName, property } = context.entity.properties as Record<
      string,
      string
    >;
    if (!this.registry.find(entityName)?.properties.get(property)?.secured) {
      throw new BusinessRuleError(`${entityName}.${property} is not a secured property`, {
        propertyName: 'property',
      });
    }
  }
}

/** Whether an update (or a child row without a stored one) writes other values of `names`. */
function namesChanged({ entity, stored }: HookContext, names: string[]): boolean {
  return !stored || names.some((name) => entity.properties[name] !== stored.properties[name]);
}

/** A unit cannot be placed under itself or under a unit below it. */
@EntityHooks('business_unit')
export class BusinessUnitHooks extends AccessChangingHooks {
  override async onBeforeUpdate(context: HookContext): Promise<void> {
    const { entity, stored, data } = context;
    const parent = entity.properties.id_parent_business_unit as number | null;
    if (parent !== null && parent !== stored!.properties.id_parent_business_unit) {
      const organization = entity.properties.id_organization as number;
      // Two moves at once could each see no cycle and make one together.
      await data.lockUntilTransactionEnds(`business_unit.parent:${organization}`);
      // Every unit above the new parent, whoever may read them: a cycle is a cycle.
      const [cycle]: unknown[] = await data.unscopedManager.query(
        `WITH RECURSIVE above AS (
           SELECT key, id_parent_business_unit FROM business_unit WHERE key = $1
           UNION
           SELECT b.key, b.id_parent_business_unit FROM business_unit b
             JOIN above a ON b.key = a.id_parent_business_unit
         ) SELECT 1 FROM above WHERE key = $2`,
        [parent, entity.properties.key],
      );
      if (cycle) {
        throw new BusinessRuleError(
          `Business unit ${parent} is this unit or below it: the units would form a cycle`,
          { propertyName: 'id_parent_business_unit' },
        );
      }
    }
    this.changed(context);
  }
}
