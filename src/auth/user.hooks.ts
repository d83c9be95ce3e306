import { EntityHooks } from '../entity/entity.decorators';
import { HookContext } from '../entity/entity-hooks';
import { BusinessRuleError } from '../entity/entity.errors';
import { hashPassword } from './password-hasher';
import { MIN_PASSWORD_LENGTH } from './user.service';

/** `password` is write-only on the `user` entity type: it is stored as a hash, never as is. */
@EntityHooks('user')
export class UserHooks {
  onBeforeInsert(context: HookContext): Promise<void> {
    if (context.entity.properties.password === undefined) {
      throw new BusinessRuleError('A new user needs a password', { propertyName: 'password' });
    }
    return this.hashPassword(context);
  }

  onBeforeUpdate(context: HookContext): Promise<void> {
    return this.hashPassword(context);
  }

  private async hashPassword({ entity }: HookContext): Promise<void> {
    const password = entity.properties.password;
    if (password === undefined) return;
    delete entity.properties.password;
    if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
      throw new BusinessRuleError(
        `The password must be at least ${MIN_PASSWORD_LENGTH} characters`,
        { propertyName: 'password' },
      );
    }
    entity.properties.password_hash = await hashPassword(password);
  }
}
