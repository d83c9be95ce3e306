import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Webhook } from './webhook.entity';

/** What became of a delivery. */
export const DELIVERY_STATES = ['pending', 'delivered', 'retrying', 'failed', 'cancelled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** One attempt of a delivery, as the log shows it. */
export interface DeliveryAttempt {
  at: string;
  /** The receiver's HTTP status; absent when no answer came. */
  status?: number;
  durationMs: number;
  /** Why it failed, when it did: a refused address, a timeout, a closed connection. */
  error?: string;
}

/**
 * One event (or test, or replay) sent to one webhook: its body fixed at the first attempt,
 * so every attempt sends the same bytes; each attempt is appended to `attempts`. Its job in
 * the queue (`job_id`) says when the next attempt comes.
 */
@Entity('webhook_delivery')
@Index(['idWebhook', 'key'])
export class WebhookDelivery {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  key: number;

  @Column({ type: 'bigint' })
  idWebhook: number;

  @ManyToOne(() => Webhook, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id_webhook' })
  webhook?: Webhook;

  @Index({ unique: true })
  @Column({ type: 'uuid' })
  jobId: string;

  /** The `webhook-id` header: the event's id, the same on every attempt and replay. */
  @Column({ type: 'varchar', length: 100 })
  eventId: string;

  @Column({ type: 'varchar', length: 100 })
  eventType: string;

  /**
   * The body, when it is not the event as the change log holds it (null: as the log has it,
   * the usual case, so the bytes are not kept twice): an event cut to what the webhook's
   * owner may read, a test. json, not jsonb: kept as written, so every attempt sends the
   * first one's bytes.
   */
  @Column({ type: 'json', nullable: true })
  payload: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 20, default: 'pending' })
  state: DeliveryState;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  attempts: DeliveryAttempt[];

  /** The delivery this one replays. */
  @Column({ type: 'bigint', nullable: true })
  replayOf: number | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
