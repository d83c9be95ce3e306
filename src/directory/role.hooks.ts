import { Injectable } from '@nestjs/common';
import { EVERY_TYPE } from '../access/access.grants';
import { AccessService } from '../access/access.service';
import { EntityHooks, HookContext } from '../data/entity-hooks';
import { BusinessRuleError } from '../entity/entity.errors';
import { EntityRegistry } from '../model/entity.registry';

/** Any write to these types changes who may do what: cached scopes are forgotten at commit. */
@Injectable()
class AccessChangingHooks {
  constructor(protected readonly access: AccessService) {}

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
    this.access.forgetAtCommit(data.transaction);
    return undefined;
  }
}

@EntityHooks('role')
export class RoleHooks extends AccessChangingHooks {}

@EntityHooks('user_role')
export class UserRoleHooks extends AccessChangingHooks {}

/**
 * A row naming an entity type (and a property) that must exist as `check` says. Checked
 * where a name is written, not on delete or an unchanged row: a role whose type an
 * application later removed can still be edited and deleted.
 */
@Injectable()
abstract class NamingHooks extends AccessChangingHooks {
  constructor(
    access: AccessService,
    protected readonly registry: EntityRegistry,
  ) {
    super(access);
  }

  /** The properties holding the names. */
  protected abstract readonly names: string[];

  /** Fails with the rule's 424 when the names are not what the row may name. */
  protected abstract check(properties: Record<string, string>): void;

  override onBeforeInsert(context: HookContext): unknown {
    this.check(context.entity.properties as Record<string, string>);
    return super.onBeforeInsert(context);
  }

  override onBeforeUpdate(context: HookContext): unknown {
    if (namesChanged(context, this.names)) {
      this.check(context.entity.properties as Record<string, string>);
    }
    return super.onBeforeUpdate(context);
  }
}

/** A privilege names a type roles govern (a top-level one: children follow their parent). */
@EntityHooks('role_privilege')
export class RolePrivilegeHooks extends NamingHooks {
  protected readonly names = ['entity_name'];

  protected check({ entity_name: name }: Record<string, string>): void {
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

/** A field permission names a secured property. */
@EntityHooks('role_field_permission')
export class RoleFieldPermissionHooks extends NamingHooks {
  protected readonly names = ['entity_name', 'property'];

  protected check({ entity_name: entityName, property }: Record<string, string>): void {
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
