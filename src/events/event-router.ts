import type { FeedRow } from '../changes/change-feed.repository';
import type { Transaction } from '../database/transaction';
import type { EntityEvent } from './entity-event';

/** An event as a router receives it: with the entry it was read from (its owner columns). */
export interface RoutedEvent {
  entry: FeedRow;
  event: EntityEvent;
}

/**
 * Where events go beside the code's subscribers, as data decides (the webhooks an
 * organization's administrators made). Registered with EventHandlers before the app boots.
 */
export interface EventRouter {
  /** Makes its queues: once, at boot, before the first dispatch. */
  declare(): Promise<void>;
  /**
   * What it routes as of the dispatcher's transaction `tx`, or undefined when it routes
   * nothing (the dispatcher then need not read the log for it).
   */
  routes(tx: Transaction): Promise<EventRoutes | undefined>;
}

export interface EventRoutes {
  /** Whether any of its routes takes this entry's event. */
  wants(entry: FeedRow): boolean;
  /** Sends the events it wants, in the dispatcher's transaction: with its position. */
  send(events: RoutedEvent[], tx: Transaction): Promise<void>;
}
