import { EntityHooks, HookContext } from '../data/entity-hooks';
import { hashPassword } from '../directory/password-hasher';
import { MIN_PASSWORD_LENGTH } from '../directory/user.service';
import { BusinessRuleError } from '../entity/entity.errors';
import { SessionService } from './session.service';
import { actorOf, ChangeLog } from '../changes/change-log.service';
import { userEvent } from './security-events';

/**
 * `password` is write-only on the `user` entity type: it is stored as a hash, never as
 * is. A new password, set by an administrator too, ends the user's sessions (but the
 * caller's own), as `POST /auth/password` does: whoever held the old one is signed out.
 */
@EntityHooks('user')
export class UserPasswordHooks {
  constructor(
    private readonly sessions: SessionService,
    private readonly changeLog: ChangeLog,
  ) {}

  async onBeforeInsert(context: HookContext): Promise<void> {
    if (context.entity.properties.password === undefined) {
      throw new BusinessRuleError('A new user needs a password', { propertyName: 'password' });
    }
    await this.hashPassword(context);
  }

  async onBeforeUpdate(context: HookContext): Promise<void> {
    if (!(await this.hashPassword(context))) return;
    const { stored, identity, data } = context;
    const user = stored!.properties;
    const userKey = user.key as number;
    const own = identity.userKey === userKey ? identity.session?.key : undefined;
    // Sessions are sign-in's rows, not entities: ended in the write's own transaction.
    await this.sessions.endOthers(userKey, own, data.transaction);
    // The hash is no value the log keeps: the event says that it changed, and who did it.
    const subject = {
      key: userKey,
      userName: user.user_name as string,
      idOrganization: user.id_organization as number,
      idBusinessUnit: user.id_business_unit as number,
    };
    this.changeLog.record(data.transaction, actorOf(identity), [
      userEvent('password_reset', subject, {}),
    ]);
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
