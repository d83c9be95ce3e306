import { HttpStatus, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpExceptionWithHeaders } from './http-errors';
import { Environment } from '../config/environment';

/** What a caller over their share hears: try again soon. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Turns for the work that can hold a pooled connection for as long as the statement
 * timeout (a FETCH query, a workflow's transaction): at most `STATEMENTS_PER_USER` at a
 * time per user (beyond: 429 with Retry-After), and at most the pool less
 * `DATABASE_POOL_RESERVED` connections at a time in all (beyond: the turn is awaited, in
 * order), so that reading and writing entities, signing in and the health check always
 * find a connection, whatever queries run. Per process, as the pool is.
 */
@Injectable()
export class StatementSlots {
  private readonly perUserLimit: number;
  private readonly totalLimit: number;
  private readonly byUser = new Map<number, number>();
  private readonly queue: (() => void)[] = [];
  private running = 0;

  constructor(config: ConfigService<Environment, true>) {
    this.perUserLimit = config.get('STATEMENTS_PER_USER', { infer: true });
    const pool = config.get('DATABASE_POOL_SIZE', { infer: true });
    this.totalLimit = Math.max(1, pool - config.get('DATABASE_POOL_RESERVED', { infer: true }));
  }

  async run<T>(userKey: number, work: () => Promise<T>): Promise<T> {
    const mine = this.byUser.get(userKey) ?? 0;
    if (mine >= this.perUserLimit) {
      throw new HttpExceptionWithHeaders(
        `You have ${mine} queries or workflows running, the most this server runs at once for one user: wait for one to finish`,
        HttpStatus.TOO_MANY_REQUESTS,
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    }
    this.byUser.set(userKey, mine + 1);
    try {
      await this.turn();
      try {
        return await work();
      } finally {
        const next = this.queue.shift();
        if (next) next();
        else this.running--;
      }
    } finally {
      const left = this.byUser.get(userKey)! - 1;
      if (left === 0) this.byUser.delete(userKey);
      else this.byUser.set(userKey, left);
    }
  }

  /** Resolves with a slot taken: now when one is free, else when one is handed over. */
  private turn(): Promise<void> {
    if (this.running < this.totalLimit) {
      this.running++;
      return Promise.resolve();
    }
    // The finishing work hands its slot on: `running` stays as it is.
    return new Promise((resolve) => this.queue.push(() => resolve()));
  }
}
