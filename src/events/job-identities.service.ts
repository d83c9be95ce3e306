import { Injectable } from '@nestjs/common';
import { identityOf } from '../auth/identity.mapper';
import { Identity } from '../common/identity';
import { UserRepository } from '../directory/user.repository';

/**
 * Who a job acts as: the user who made the change or sent the job, as that user is now
 * (roles and unit included), or no one once the user is gone or deactivated.
 */
@Injectable()
export class JobIdentities {
  constructor(private readonly users: UserRepository) {}

  /** `via` names the job in the change log of what it writes (`job event/Mailer.sent`). */
  async of(userKey: number | null | undefined, queue: string): Promise<Identity | undefined> {
    if (userKey == null) return undefined;
    const user = await this.users.findByKey(userKey);
    if (!user?.active) return undefined;
    return { ...identityOf(user, 'job', user.locale), via: `job ${queue}` };
  }
}
