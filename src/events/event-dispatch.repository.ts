import { Injectable } from '@nestjs/common';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';
import { ANNOUNCEMENT_SECONDS } from './event-handler.repository';

/** How far the dispatcher has read the change log (see EventDispatcher). */
export interface DispatchState {
  /** The range of transactions being read: from… */
  rangeFrom: number;
  /** …to (excluded); equal to rangeFrom once it is read to its end. */
  rangeTo: number;
  /** The last key of the range read. */
  doneKey: number;
  /** Entries of earlier ranges held back behind an unread entry of their record. */
  pending: number[];
  /**
   * Whether this transaction began after the last pass: the jobs a pass sends carry its
   * start as their creation time, by which a queue orders them, so an earlier one (another
   * instance's, begun before the last pass but locking after it) must not send any.
   */
  later: boolean;
}

const STATE_COLUMNS = `range_from AS "rangeFrom", range_to AS "rangeTo",
  done_key AS "doneKey", pending,
  (last_pass IS NULL OR now() > last_pass) AS later`;

/** A subscriber an instance announced: its queue takes these events. */
export interface AnnouncedSubscriber {
  queue: string;
  entity: string;
  operations: string[];
}

/**
 * The state as a pass finds it: with where the log may be read up to now, and the
 * subscribers live instances announce (those of a newer or older version too).
 */
export interface LockedState extends DispatchState {
  /** ChangeFeedRepository.horizon, read with the state. */
  horizon: number;
  subscribers: AnnouncedSubscriber[];
}

/** The dispatcher's one row: read and written by one instance at a time. */
@Injectable()
export class EventDispatchRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The state, locked for `tx`, with the change log's horizon and the live subscribers; read
   * with the horizon, these are announced before any entry the pass may read committed.
   * Undefined while another instance holds it (that one dispatches: this one skips its turn
   * rather than wait).
   */
  @GenerateSql({ params: ['events', IN_TRANSACTION] })
  async lock(name: string, tx: Transaction): Promise<LockedState | undefined> {
    const state = await this.sql.row<LockedState>(
      `SELECT ${STATE_COLUMNS}, change_log_horizon() AS horizon,
              (SELECT coalesce(jsonb_agg(DISTINCT jsonb_build_object('queue', h.queue,
                        'entity', h.entity, 'operations', h.operations)), '[]')
                 FROM event_handler h
                WHERE h.entity IS NOT NULL
                  AND h.announced_at > now() - make_interval(secs => $2)) AS subscribers
         FROM event_dispatch WHERE name = $1 FOR UPDATE SKIP LOCKED`,
      [name, ANNOUNCEMENT_SECONDS],
      tx,
    );
    // pg reads int8 arrays as text (pg-types.ts sets int8 alone).
    return state && { ...state, pending: state.pending.map(Number) };
  }

  /** The state of a dispatcher that starts now: it reads what commits from here on. */
  @GenerateSql({ params: ['events', 100, IN_TRANSACTION] })
  async start(name: string, horizon: number, tx: Transaction): Promise<void> {
    await this.sql.run(
      `INSERT INTO event_dispatch (name, range_from, range_to) VALUES ($1, $2, $2)
       ON CONFLICT (name) DO NOTHING`,
      [name, horizon],
      tx,
    );
  }

  @GenerateSql({
    params: [
      'events',
      { rangeFrom: 1, rangeTo: 100, doneKey: 0, pending: [], later: true },
      IN_TRANSACTION,
    ],
  })
  async save(name: string, state: DispatchState, tx: Transaction): Promise<void> {
    await this.sql.run(
      `UPDATE event_dispatch SET range_from = $2, range_to = $3, done_key = $4, pending = $5::int8[],
         last_pass = now()
        WHERE name = $1`,
      [name, state.rangeFrom, state.rangeTo, state.doneKey, state.pending],
      tx,
    );
  }
}
