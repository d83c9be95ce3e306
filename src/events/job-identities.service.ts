import { Injectable } from '@nestjs/common';
import { systemScope } from '../access/access.tenant';
import { identityOf } from '../auth/identity.mapper';
import { Identity } from '../common/identity';
import { UserRepository } from '../directory/user.repository';

/** Jobs of every organization are worked by one queue; each runs as its sender. */
const JOBS = systemScope('jobs');

/**
 * Who a job acts as: the user who made the change or sent the job, as that user is now
 * (roles and unit included), or no one once the user is gone or deactivated.
 */
@Injectable()
export class JobIdentities {
  constructor(private readonly users: UserRepository) {}

  /**
   * The user of the organization the job names; `via` names the job in the change log of
   * what it writes (`job event/Mailer.sent`).
   */
  async of(
    organizationKey: number | null | undefined,
    userKey: number | null | undefined,
    queue: string,
  ): Promise<Identity | undefined> {
    if (userKey == null || organizationKey == null) return undefined;
    const user = await this.users.findByKey(JOBS.tenant(organizationKey), userKey);
    if (!user?.active) return undefined;
    return { ...identityOf(user, 'job', user.locale), via: `job ${queue}` };
  }
}
