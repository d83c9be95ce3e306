import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { systemScope } from '../access/access.tenant';
import { ChangeFeedRepository, FeedRange, FeedRow } from '../changes/change-feed.repository';
import { ChangeLog } from '../changes/change-log.service';
import { PassLoop } from '../common/pass-loop';
import type { Environment } from '../config/environment';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { uuidOfKeys } from '../queue/job-id';
import { JobEnvelope, JobQueue } from '../queue/job-queue.service';
import { byParent, EVENT_OPERATIONS, eventOf } from './entity-event';
import { inRecordOrder, recordOf } from './event-order';
import { DispatchState, EventDispatchRepository } from './event-dispatch.repository';
import { EventHandlers, Subscriptions } from './event-handlers.service';
import type { EntityEvent } from './entity-event';
import type { EventRoutes, RoutedEvent } from './event-router';

/** The dispatcher reads every organization's committed writes, in order. */
const DISPATCH = systemScope('event-dispatch');

/** The dispatcher's row in event_dispatch. */
const NAME = 'events';
/** Record entries read per transaction of the dispatcher. */
const CHUNK = 500;
/** The least time between the end of a pass and the next, while commits keep coming. */
const PASS_GAP_MS = 50;
/** After a failed pass, the wait before the next: doubling from a second to a minute. */
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

/**
 * Turns committed change-log entries into jobs for the event subscribers: the change log is
 * the outbox, so a write pays nothing more for its events, and an event exists if and only
 * if its write committed (a crash loses none: the jobs and the dispatcher's position are
 * written by one transaction).
 *
 * It reads ranges of PostgreSQL transaction ids below the horizon of this database's
 * transactions under way (ChangeFeedRepository.horizon), each in key order, a chunk per
 * transaction, in one statement; one instance at a time (the others skip their turn). An entry is held back while an earlier entry of its record is still
 * unread (its transaction id came later, or it lies further in the range), so each
 * subscriber gets a record's events in the order they were written. Woken after each
 * commit of this instance that logged a record (while anything takes events: a subscriber,
 * an active webhook), and every EVENTS_POLL_MS for the others' and for new routes.
 */
@Injectable()
export class EventDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventDispatcher.name);
  private readonly pollMs: number;
  private timer?: NodeJS.Timeout;
  private readonly loop: PassLoop;
  private stopped = false;
  private active = false;
  /** Whether the last pass found anything that takes events. */
  private routing = false;

  constructor(
    private readonly transactions: Transactions,
    private readonly feed: ChangeFeedRepository,
    private readonly state: EventDispatchRepository,
    private readonly handlers: EventHandlers,
    private readonly queue: JobQueue,
    changeLog: ChangeLog,
    config: ConfigService<Environment, true>,
  ) {
    this.pollMs = config.get('EVENTS_POLL_MS', { infer: true });
    this.loop = new PassLoop(() => this.readAll(), {
      gapMs: PASS_GAP_MS,
      firstBackoffMs: FIRST_BACKOFF_MS,
      maxBackoffMs: MAX_BACKOFF_MS,
      onFailure: (error, waitMs) =>
        this.logger.error(error, `event dispatch failed; tried again in ${waitMs / 1000} s`),
    });

    // While nothing takes events, the poll alone moves the position on: a commit costs
    // no pass. The first pass that finds a route has each commit wake the next.
    changeLog.onCommitted(() => {
      if (this.routing) this.wake();
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    // The log is read from the first start of an app with subscribers or routers on, by the instances
    // that work queues; what commits meanwhile on the others waits for those.
    await this.handlers.declared;
    if (!this.handlers.anyDestination) return;
    await this.transactions.run(async (tx) =>
      this.state.start(NAME, await this.feed.horizon(tx), tx),
    );
    this.active = this.queue.works;
    if (!this.active) return;
    this.timer = setInterval(() => this.wake(), this.pollMs).unref();
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.loop.stop();
  }

  /**
   * Reads the log now, or once more after the read under way: under a stream of writes, a
   * pass per PASS_GAP_MS rather than one per commit; after a failure, not before its backoff.
   */
  wake(): void {
    if (this.active) this.loop.wake();
  }

  private async readAll(): Promise<void> {
    while (!this.stopped && (await this.transactions.run((tx) => this.pass(tx)))) {
      // A full chunk: more is waiting.
    }
  }

  /**
   * One chunk; whether more is waiting (the chunk was full). What committed during the pass
   * is read by the next, a PASS_GAP_MS after it (those commits woke it): under a stream of
   * writes a pass takes what came in the gap, not the few that came during the pass.
   */
  private async pass(tx: Transaction): Promise<boolean> {
    const locked = await this.state.lock(NAME, tx);
    // Locked by another instance, or this transaction began before the last pass ended.
    if (!locked?.later) return false;
    const { horizon, subscribers, ...state } = locked;
    if (state.rangeFrom === state.rangeTo) {
      state.rangeTo = horizon;
      state.doneKey = 0;
    }
    const range: FeedRange = { from: state.rangeFrom, to: state.rangeTo, after: state.doneKey };
    const routes = await this.routesIn(tx);
    const subscriptions = this.handlers.subscriptions(subscribers);
    // With nothing that takes an event, the range is passed over unread: all of it committed
    // before this transaction's snapshot, so before any route made since.
    const reading = subscriptions.any || routes.length > 0;
    this.routing = reading;
    const fresh =
      reading && range.from < range.to
        ? await this.feed.recordEntries(DISPATCH, range, EVENT_OPERATIONS, CHUNK, tx)
        : [];
    // (Entries held back for destinations since gone are let go with them.)
    const held =
      reading && state.pending.length > 0
        ? await this.feed.entries(DISPATCH, state.pending, tx)
        : [];
    const candidates = [...fresh, ...held];
    const { ready, waiting } = inRecordOrder(
      candidates,
      await this.unreadBehind(range, candidates, tx),
    );
    await this.enqueue(ready, subscriptions, routes, tx);
    const next: DispatchState = { ...state, pending: waiting.map((entry) => entry.key) };
    if (fresh.length < CHUNK) {
      next.rangeFrom = state.rangeTo;
      next.doneKey = 0;
    } else {
      next.doneKey = fresh[fresh.length - 1].key;
    }
    await this.state.save(NAME, next, tx);
    return fresh.length === CHUNK;
  }

  /** The candidates' records' entries the feed has not read (themselves among them). */
  private async unreadBehind(
    range: FeedRange,
    candidates: FeedRow[],
    tx: Transaction,
  ): Promise<{ rootEntity: string; rootKey: number; key: number }[]> {
    if (candidates.length === 0) return [];
    return this.feed.unread(
      DISPATCH,
      range,
      [...new Set(candidates.map((c) => c.rootEntity))],
      [...new Set(candidates.map((c) => c.rootKey!))],
      EVENT_OPERATIONS,
      Math.max(...candidates.map((c) => c.key)),
      tx,
    );
  }

  /** The routers' routes as of `tx`, those that route anything. */
  private async routesIn(tx: Transaction): Promise<EventRoutes[]> {
    const routes: EventRoutes[] = [];
    for (const router of this.handlers.routers) {
      const found = await router.routes(tx);
      if (found) routes.push(found);
    }
    return routes;
  }

  /**
   * A job per event and subscriber, keyed by record so that each runs a record's in order;
   * and to each route the events it wants.
   */
  private async enqueue(
    entries: FeedRow[],
    subscriptions: Subscriptions,
    routes: EventRoutes[],
    tx: Transaction,
  ): Promise<void> {
    const routed = entries
      .map((entry) => ({
        entry,
        queues: subscriptions.of(entry.entity, entry.operation),
        routes: routes.filter((route) => route.wants(entry)),
      }))
      .filter(({ queues, routes }) => queues.length > 0 || routes.length > 0);
    if (routed.length === 0) return;
    const below = byParent(
      await this.feed.childEntries(
        DISPATCH,
        [...new Set(routed.map(({ entry }) => entry.transactionId))],
        tx,
      ),
    );
    const jobs = new Map<
      string,
      { id: string; data: JobEnvelope<EntityEvent>; singletonKey: string }[]
    >();
    const routedEvents = new Map<EventRoutes, RoutedEvent[]>();
    for (const { entry, queues, routes: wanting } of routed) {
      const event = eventOf(entry, below);
      const data = { organization: entry.idOrganization, actor: entry.idActor, payload: event };
      for (const queue of queues) {
        const list = jobs.get(queue) ?? [];
        list.push({ id: jobIdOf(entry), data, singletonKey: recordOf(entry) });
        jobs.set(queue, list);
      }
      for (const route of wanting) {
        routedEvents.set(route, [...(routedEvents.get(route) ?? []), { entry, event }]);
      }
    }
    for (const [queue, list] of jobs) await this.queue.insert(queue, list, tx);
    for (const [route, events] of routedEvents) await route.send(events, tx);
  }
}

/**
 * The job of an entry, the same in every subscriber's queue: its key in a uuid's digits.
 * Jobs sent together share their creation time, and the queue takes them by that time, then
 * by id: an id in key order keeps a record's events in order.
 */
function jobIdOf(entry: FeedRow): string {
  return uuidOfKeys(0, entry.key);
}
