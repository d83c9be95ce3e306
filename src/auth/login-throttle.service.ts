import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { Environment } from '../config/environment';
import { TooManyAttemptsException } from '../http/http-errors';
import { LoginLimitRepository } from './login-limit.repository';
/** rate-limiter-flexible keeps points in an int4 column: a count that never blocks. */
const UNLIMITED = 2 ** 31 - 1;
const HOUR_MS = 3_600_000;
const SWEEP_EVERY_MS = 300_000;

/**
 * Failed logins, counted in PostgreSQL so that every instance on the database shares
 * them, as OWASP's authentication guidance has it:
 * - per user name *and* address, and per address: past the limit, 429 until the window
 *   passes, even with the right password;
 * - per user name alone only a progressive delay: after some failures from anywhere,
 *   attempts at that user are spaced 1, 2, 4 … seconds apart (up to a maximum), so that
 *   guessing one password from many addresses is slow, while a stranger who knows the
 *   name can make its owner wait seconds, not lock them out.
 * Every attempt counts before the password is checked, so guesses sent in parallel cannot
 * all pass a check none of them has been counted against yet; a success clears the
 * user's counts.
 */
@Injectable()
export class LoginThrottleService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly perUserAndAddress: RateLimiterPostgres;
  private readonly perAddress: RateLimiterPostgres;
  private readonly userFailures: RateLimiterPostgres;
  /** One attempt at a user per delay: a key that lives as long as the delay. */
  private readonly userDelay: RateLimiterPostgres;
  private readonly failuresBeforeDelay: number;
  private readonly maxDelaySeconds: number;
  private sweeper?: NodeJS.Timeout;

  constructor(
    config: ConfigService<Environment, true>,
    private readonly limits: LoginLimitRepository,
  ) {
    const duration = config.get('LOGIN_FAILURE_WINDOW_SECONDS', { infer: true });
    const limiter = (options: { keyPrefix: string; points: number }) =>
      limits.limiter({ duration, ...options });
    this.perUserAndAddress = limiter({
      keyPrefix: 'user-address',
      points: config.get('LOGIN_MAX_FAILURES_PER_USER_AND_ADDRESS', { infer: true }),
    });
    this.perAddress = limiter({
      keyPrefix: 'address',
      points: config.get('LOGIN_MAX_FAILURES_PER_ADDRESS', { infer: true }),
    });
    this.userFailures = limiter({ keyPrefix: 'user', points: UNLIMITED });
    this.userDelay = limiter({ keyPrefix: 'user-delay', points: 1 });
    this.failuresBeforeDelay = config.get('LOGIN_USER_FAILURES_BEFORE_DELAY', { infer: true });
    this.maxDelaySeconds = config.get('LOGIN_USER_MAX_DELAY_SECONDS', { infer: true });
  }

  /**
   * Sweeps the shared table of rows expired an hour ago, every five minutes: the library's
   * own sweep has a timer that outlives the app (it ran against a closed pool in tests).
   */
  onApplicationBootstrap(): void {
    this.sweeper = setInterval(() => {
      this.limits.sweep(Date.now() - HOUR_MS).catch(() => undefined);
    }, SWEEP_EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  /** Counts an attempt at `userName` from `address`; 429 with Retry-After when it must wait. */
  async consumeAttempt(userName: string, address: string): Promise<void> {
    const counted = await this.userFailures.consume(userName);
    const delay = this.delaySeconds(counted.consumedPoints - 1);
    await refusedWhenLimited([
      this.perUserAndAddress.consume(`${userName}\n${address}`),
      this.perAddress.consume(address),
      ...(delay > 0 ? [this.userDelay.consume(userName, 1, { customDuration: delay })] : []),
    ]);
  }

  /** A success is not a failure: the user's counts start again, the address gets its point back. */
  async recordSuccess(userName: string, address: string): Promise<void> {
    await Promise.all([
      this.userFailures.delete(userName),
      this.userDelay.delete(userName),
      this.perUserAndAddress.delete(`${userName}\n${address}`),
      this.perAddress.reward(address, 1),
    ]);
  }

  /** The wait before the next attempt at a user after `failures` failures. */
  private delaySeconds(failures: number): number {
    const beyond = failures - this.failuresBeforeDelay;
    return beyond < 0 ? 0 : Math.min(2 ** beyond, this.maxDelaySeconds);
  }
}

/** 429 when any limiter refused, with the longest wait any of them asks for. */
async function refusedWhenLimited(checks: Promise<unknown>[]): Promise<void> {
  const blockedMs: number[] = [];
  for (const outcome of await Promise.allSettled(checks)) {
    if (outcome.status === 'fulfilled') continue;
    if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason;
    blockedMs.push(Math.max(outcome.reason.msBeforeNext, 1000));
  }
  if (blockedMs.length > 0) {
    throw new TooManyAttemptsException(Math.ceil(Math.max(...blockedMs) / 1000));
  }
}
