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

  /**
   * Counts this attempt before the password is checked, so guesses sent in parallel
   * cannot all pass a check that none of them has been counted against yet.
   */
  async consumeAttempt(userName: string, address: string): Promise<void> {
    const outcomes = await Promise.allSettled([
      this.perUser.consume(userName),
      this.perAddress.consume(address),
    ]);
    const blockedMs: number[] = [];
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') continue;
      if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason;
      blockedMs.push(Math.max(outcome.reason.msBeforeNext, 1000));
    }
    if (blockedMs.length > 0) {
      throw new TooManyAttemptsException(Math.ceil(Math.max(...blockedMs) / 1000));
    }
  }

  /** A success is not a failure: the user's count starts again, the address gets its point back. */
  async recordSuccess(userName: string, address: string): Promise<void> {
    await Promise.all([this.perUser.delete(userName), this.perAddress.reward(address, 1)]);
  }
}
