import { EntityHooks, HookContext } from '../data/entity-hooks';
import { hashPassword } from '../directory/password-hasher';
import { MIN_PASSWORD_LENGTH } from '../directory/user.service';
import { BusinessRuleError } from '../entity/entity.errors';
import { SessionService } from './session.service';

/**
 * `password` is write-only on the `user` entity type: it is stored as a hash, never as
 * is. A new password, set by an administrator too, ends the user's sessions (but the
 * caller's own), as `POST /auth/password` does: whoever held the old one is signed out.
 */
@EntityHooks('user')
export class UserPasswordHooks {
  constructor(private readonly sessions: SessionService) {}

  async onBeforeInsert(context: HookContext): Promise<void> {
    if (context.entity.properties.password === undefined) {
      throw new BusinessRuleError('A new user needs a password', { propertyName: 'password' });
    }
    await this.hashPassword(context);
  }

  async onBeforeUpdate(context: HookContext): Promise<void> {
    if (!(await this.hashPassword(context))) return;
    const { stored, identity, data } = context;
    const userKey = stored!.properties.key as number;
    const own = identity.userKey === userKey ? identity.session?.key : undefined;
    // Sessions are sign-in's rows, not entities: ended in the write's own transaction.
    await this.sessions.endOthers(userKey, own, data.transaction);
  }

  /** True when the entity carried a new password. */
  private async hashPassword({ entity }: HookContext): Promise<boolean> {
    const password = entity.properties.password;
    if (password === undefined) return false;
    delete entity.properties.password;
    if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
      throw new BusinessRuleError(
        `The password must be at least ${MIN_PASSWORD_LENGTH} characters`,
        { propertyName: 'password' },
      );
    }
    entity.properties.password_hash = await hashPassword(password);
    return true;
  }
}
