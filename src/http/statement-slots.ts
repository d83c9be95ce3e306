import { HttpStatus, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpExceptionWithHeaders } from './http-errors';
import { Environment } from '../config/environment';

/** What a caller refused a turn hears: try again soon. */
const RETRY_AFTER_SECONDS = 1;

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

/** One user's turns: those running, those waiting in the order they came, the last end. */
interface UserTurns {
  running: number;
  readonly waiting: Waiter[];
  lastEnded: number;
}

/**
 * How long after its last turn ended a user still counts as one sharing the turns: longer
 * than the pause between one query's answer and the next, so that a user sending one
 * query after another keeps its share between them.
 */
export const ACTIVE_MS = 1000;

/**
 * Turns for the work that can hold a pooled connection for as long as the statement
 * timeout (a FETCH query, a workflow's transaction), so that one user cannot starve the
 * others and reading and writing entities, signing in and the health check always find
 * a connection, whatever queries run:
 *
 * - at most the pool less `DATABASE_POOL_RESERVED` connections at a time in all, and per
 *   user at most an equal share of those among the users active in the last second,
 *   never more than `STATEMENTS_PER_USER` nor less than one: alone, a user runs
 *   `STATEMENTS_PER_USER` at once; with another user querying, each runs its share, so
 *   that the other's query does not run beside all of the first one's (on a small
 *   machine the cores are the limit: a query beside two others took three times as long);
 * - beyond either, the work waits for its turn, in a queue per user: a free turn goes to
 *   the users with work waiting in rotation, one turn each, so one user's ten waiting
 *   queries do not go before another user's first;
 * - a wait is bounded: after `STATEMENT_WAIT_MS`, or with `STATEMENTS_QUEUED_PER_USER`
 *   already waiting, the answer is 429 with Retry-After. Refusing at once instead made
 *   clients that ignore Retry-After a storm of 429s that ate the CPU the queries needed.
 *
 * Per process, as the pool is.
 */
@Injectable()
export class StatementSlots {
  private readonly perUserLimit: number;
  private readonly totalLimit: number;
  private readonly waitMs: number;
  private readonly queuedPerUser: number;
  private readonly byUser = new Map<number, UserTurns>();
  /** Users with work waiting that may start it when a turn is free, in rotation order. */
  private readonly rotation = new Set<number>();
  private running = 0;

  constructor(config: ConfigService<Environment, true>) {
    this.perUserLimit = config.get('STATEMENTS_PER_USER', { infer: true });
    const pool = config.get('DATABASE_POOL_SIZE', { infer: true });
    this.totalLimit = Math.max(1, pool - config.get('DATABASE_POOL_RESERVED', { infer: true }));
    this.waitMs = config.get('STATEMENT_WAIT_MS', { infer: true });
    this.queuedPerUser = config.get('STATEMENTS_QUEUED_PER_USER', { infer: true });
  }

  async run<T>(userKey: number, work: () => Promise<T>): Promise<T> {
    const turns = this.turnsOf(userKey);
    if (this.running < this.totalLimit && turns.running < this.shareNow()) {
      this.start(turns);
    } else {
      await this.wait(userKey, turns);
    }
    try {
      return await work();
    } finally {
      this.finish(userKey, turns);
    }
  }

  private turnsOf(userKey: number): UserTurns {
    let turns = this.byUser.get(userKey);
    if (!turns) {
      turns = { running: 0, waiting: [], lastEnded: 0 };
      this.byUser.set(userKey, turns);
    }
    return turns;
  }

  private start(turns: UserTurns): void {
    turns.running++;
    this.running++;
  }

  private wait(userKey: number, turns: UserTurns): Promise<void> {
    if (turns.waiting.length >= this.queuedPerUser) {
      this.forgetIfIdle(userKey, turns);
      return Promise.reject(
        refusal(
          `You have ${turns.running} queries or workflows running and ${turns.waiting.length} waiting, the most this server holds for one user`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          turns.waiting.splice(turns.waiting.indexOf(waiter), 1);
          if (turns.waiting.length === 0) this.rotation.delete(userKey);
          this.forgetIfIdle(userKey, turns);
          reject(
            refusal(
              `This query or workflow waited ${this.waitMs} ms for a turn and none was free (you have ${turns.running} running)`,
            ),
          );
          // A wait does not keep the process alive: shutdown ends the request anyway.
        }, this.waitMs).unref(),
      };
      turns.waiting.push(waiter);
      if (turns.running < this.shareNow()) this.rotation.add(userKey);
    });
  }

  private finish(userKey: number, turns: UserTurns): void {
    turns.running--;
    this.running--;
    turns.lastEnded = Date.now();
    // Back in rotation behind the users already waiting there.
    if (turns.waiting.length > 0) this.rotation.add(userKey);
    this.handOut();
    this.forgetIfIdle(userKey, turns);
  }

  /**
   * Free turns to the users in rotation, one each, the one served going to the back; a
   * user at its share (which shrinks as others become active) leaves the rotation until
   * one of its own ends.
   */
  private handOut(): void {
    const share = this.shareNow();
    for (const userKey of this.rotation) {
      if (this.running >= this.totalLimit) return;
      this.rotation.delete(userKey);
      const turns = this.byUser.get(userKey)!;
      if (turns.running >= share) continue;
      this.start(turns);
      turns.waiting.shift()!.start();
      if (turns.waiting.length > 0 && turns.running < share) this.rotation.add(userKey);
    }
  }

  /** Each active user's share of the turns now; users idle past ACTIVE_MS are forgotten. */
  private shareNow(): number {
    const since = Date.now() - ACTIVE_MS;
    let active = 0;
    for (const [userKey, turns] of this.byUser) {
      const idle = turns.running === 0 && turns.waiting.length === 0;
      // lastEnded 0: a user just arrived, whose first turn is being decided.
      if (!idle || turns.lastEnded === 0 || turns.lastEnded > since) active++;
      else this.byUser.delete(userKey);
    }
    const share = Math.floor(this.totalLimit / Math.max(1, active));
    return Math.min(this.perUserLimit, Math.max(1, share));
  }

  /** A user with nothing running or waiting, kept only to count as active a while. */
  private forgetIfIdle(userKey: number, turns: UserTurns): void {
    if (turns.running === 0 && turns.waiting.length === 0 && turns.lastEnded === 0) {
      this.byUser.delete(userKey);
    }
  }
}

function refusal(reason: string): HttpExceptionWithHeaders {
  return new HttpExceptionWithHeaders(`${reason}: try again soon`, HttpStatus.TOO_MANY_REQUESTS, {
    'Retry-After': String(RETRY_AFTER_SECONDS),
  });
}
