import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyAttemptsException } from '../common/errors';
import { Environment } from '../config/environment';

/**
 * Counts failed logins per user name and per client address; past the limit, logins
 * are refused with 429 until the window passes, even with the right password. Counts
 * are per process (a cluster of n instances allows up to n times the limit).
 */
@Injectable()
export class LoginThrottleService {
  private readonly perUser: RateLimiterMemory;
  private readonly perAddress: RateLimiterMemory;

  constructor(config: ConfigService<Environment, true>) {
    const duration = config.get('LOGIN_FAILURE_WINDOW_SECONDS', { infer: true });
    this.perUser = new RateLimiterMemory({
      keyPrefix: 'login-user',
      points: config.get('LOGIN_MAX_FAILURES_PER_USER', { infer: true }),
      duration,
    });
    this.perAddress = new RateLimiterMemory({
      keyPrefix: 'login-address',
      points: config.get('LOGIN_MAX_FAILURES_PER_ADDRESS', { infer: true }),
      duration,
    });
  }

  async assertAllowed(userName: string, address: string): Promise<void> {
    const [user, client] = await Promise.all([
      this.perUser.get(userName),
      this.perAddress.get(address),
    ]);
    const blocked = [
      exhausted(user, this.perUser.points),
      exhausted(client, this.perAddress.points),
    ].filter((ms): ms is number => ms !== undefined);
    if (blocked.length > 0)
      throw new TooManyAttemptsException(Math.ceil(Math.max(...blocked) / 1000));
  }

  async recordFailure(userName: string, address: string): Promise<void> {
    await Promise.all([this.perUser.penalty(userName, 1), this.perAddress.penalty(address, 1)]);
  }

  async recordSuccess(userName: string): Promise<void> {
    await this.perUser.delete(userName);
  }
}

function exhausted(state: RateLimiterRes | null, points: number): number | undefined {
  return state && state.consumedPoints >= points ? Math.max(state.msBeforeNext, 1000) : undefined;
}
