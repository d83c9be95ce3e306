import { Injectable } from '@nestjs/common';
import { SystemScope, systemScope, Tenant } from '../access/access.tenant';
import { SAMPLE_TENANT } from '../access/scope.samples';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { pgJson } from '../database/pg-json';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';
import { Owner, ownerOfRow } from '../model/owner';
import type { DeliveryAttempt, DeliveryState } from './entities/webhook-delivery.entity';

/** The queue of deliveries (one job per event and webhook, or per test and replay). */
export const DELIVERY_QUEUE = 'webhook-delivery';

/** A webhook as a delivery needs it: with its secret. */
export interface WebhookTarget {
  key: number;
  organization: number;
  businessUnit: number;
  owner: number;
  url: string;
  condition: string | null;
  active: boolean;
  secret: string;
  dateCreated: Date;
}

/** An active webhook as the dispatcher routes by it: what it takes, and where it goes. */
export interface WebhookRoute extends WebhookTarget {
  events: string;
}

export interface DeliveryRow {
  key: number;
  idWebhook: number;
  jobId: string;
  eventId: string;
  eventType: string;
  /** The body, where the change log does not hold it (see WebhookDelivery.payload). */
  payload: object | null;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  replayOf: number | null;
  createdAt: Date;
}

/** A delivery as its log lists it: when its next attempt comes, from its job. */
export interface DeliverySummary extends Omit<DeliveryRow, 'payload'> {
  nextAttemptAt: Date | null;
}

/** An attempt made, as recorded; none for a delivery whose first attempt is under way. */
export interface RecordedAttempt {
  delivery: NewDelivery;
  attempt: DeliveryAttempt | null;
  state: DeliveryState;
}

export type NewDelivery = Pick<
  DeliveryRow,
  'idWebhook' | 'jobId' | 'eventId' | 'eventType' | 'payload' | 'replayOf'
>;

const TARGET_COLUMNS = `key, id_organization AS organization, id_business_unit AS "businessUnit",
  id_user AS owner, url, condition, active, secret, date_created AS "dateCreated"`;

const DELIVERY_COLUMNS = `d.key, d.id_webhook AS "idWebhook", d.job_id AS "jobId",
  d.event_id AS "eventId", d.event_type AS "eventType", d.state, d.attempts,
  d.replay_of AS "replayOf", d.created_at AS "createdAt"`;

/** The deliveries' worker and router: webhooks of every organization, one queue. */
const DELIVERY = systemScope('webhook-delivery');

/**
 * The webhooks' SQL beside the entity engine's (which reads and writes their records):
 * what an organization's administrators do is bound to its tenant; routing and delivering
 * span organizations under the deliveries' system scope.
 */
@Injectable()
export class WebhookRepository {
  constructor(private readonly sql: Sql) {}

  @GenerateSql({ params: [DELIVERY, IN_TRANSACTION] })
  routes(_system: SystemScope, tx: Transaction): Promise<WebhookRoute[]> {
    return this.sql.rows(`SELECT ${TARGET_COLUMNS}, events FROM webhook WHERE active`, [], tx);
  }

  @GenerateSql({ params: [DELIVERY, [1]] })
  targets(_system: SystemScope, keys: number[]): Promise<WebhookTarget[]> {
    return this.sql.rows(`SELECT ${TARGET_COLUMNS} FROM webhook WHERE key = ANY($1::int8[])`, [
      keys,
    ]);
  }

  /** Whether the organization has the webhook. */
  @GenerateSql({ params: [SAMPLE_TENANT, 1] })
  async exists(tenant: Tenant, key: number): Promise<boolean> {
    const row = await this.sql.row(
      `SELECT 1 FROM webhook WHERE key = $1 AND id_organization = $2`,
      [key, tenant.organizationKey],
    );
    return row !== undefined;
  }

  @GenerateSql({ params: [SAMPLE_TENANT, 1, IN_TRANSACTION] })
  async secret(tenant: Tenant, key: number, tx: Transaction): Promise<string | undefined> {
    const row = await this.sql.row<{ secret: string }>(
      `SELECT secret FROM webhook WHERE key = $1 AND id_organization = $2`,
      [key, tenant.organizationKey],
      tx,
    );
    return row?.secret;
  }

  /** A new secret; the webhook's owner, for its change-log entry. */
  @GenerateSql({ params: [SAMPLE_TENANT, 1, 'whsec_c2VjcmV0', IN_TRANSACTION] })
  async setSecret(
    tenant: Tenant,
    key: number,
    secret: string,
    tx: Transaction,
  ): Promise<Owner | undefined> {
    const row = await this.sql.row<Record<string, unknown>>(
      `UPDATE webhook SET secret = $2 WHERE key = $1 AND id_organization = $3
       RETURNING id_organization, id_business_unit, id_user`,
      [key, secret, tenant.organizationKey],
      tx,
    );
    return row && ownerOfRow(row);
  }

  @GenerateSql({ params: [DELIVERY, ['00000000-0000-0000-0000-000000000000']] })
  byJobs(_system: SystemScope, jobIds: string[]): Promise<DeliveryRow[]> {
    return this.sql.rows(
      `SELECT ${DELIVERY_COLUMNS}, d.payload FROM webhook_delivery d WHERE d.job_id = ANY($1::uuid[])`,
      [jobIds],
    );
  }

  @GenerateSql({ params: [SAMPLE_TENANT, 1, 1] })
  delivery(tenant: Tenant, webhook: number, key: number): Promise<DeliveryRow | undefined> {
    return this.sql.row(
      `SELECT ${DELIVERY_COLUMNS}, d.payload FROM webhook_delivery d
         JOIN webhook w ON w.key = d.id_webhook AND w.id_organization = $3
        WHERE d.id_webhook = $1 AND d.key = $2`,
      [webhook, key, tenant.organizationKey],
    );
  }

  /** Newest first, before the delivery `before` when given. */
  @GenerateSql({ params: [SAMPLE_TENANT, 1, null, 50] })
  deliveries(
    tenant: Tenant,
    webhook: number,
    before: number | null,
    limit: number,
  ): Promise<Omit<DeliveryRow, 'payload'>[]> {
    return this.sql.rows(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_delivery d
         JOIN webhook w ON w.key = d.id_webhook AND w.id_organization = $4
        WHERE d.id_webhook = $1 AND ($2::int8 IS NULL OR d.key < $2)
        ORDER BY d.key DESC LIMIT $3`,
      [webhook, before, limit, tenant.organizationKey],
    );
  }

  /**
   * The delivery, made once: a repeat of its job finds the one made first. Undefined when
   * the webhook is gone (deleted meanwhile).
   */
  @GenerateSql({
    params: [
      SAMPLE_TENANT,
      {
        idWebhook: 1,
        jobId: '00000000-0000-0000-0000-000000000000',
        eventId: '1',
        eventType: 'account.created',
        payload: {},
        replayOf: null,
      },
      IN_TRANSACTION,
    ],
  })
  insert(
    tenant: Tenant,
    delivery: NewDelivery,
    tx?: Transaction,
  ): Promise<DeliveryRow | undefined> {
    return this.sql.row<DeliveryRow>(
      `INSERT INTO webhook_delivery (id_webhook, job_id, event_id, event_type, payload, replay_of)
       SELECT key, $2, $3, $4, $5, $6 FROM webhook WHERE key = $1 AND id_organization = $7
       ON CONFLICT (job_id) DO UPDATE SET job_id = EXCLUDED.job_id
       RETURNING key, id_webhook AS "idWebhook", job_id AS "jobId", event_id AS "eventId",
                 event_type AS "eventType", payload, state, attempts, replay_of AS "replayOf",
                 created_at AS "createdAt"`,
      [
        delivery.idWebhook,
        delivery.jobId,
        delivery.eventId,
        delivery.eventType,
        delivery.payload,
        delivery.replayOf,
        tenant.organizationKey,
      ],
      tx,
    );
  }

  /**
   * Attempts, each appended to its delivery's log (the delivery made with its body at its
   * first attempt, or with none while that is under way); a success starts its webhook's count of failures afresh. One statement
   * for them all; nothing for a webhook gone.
   */
  @GenerateSql({
    params: [
      DELIVERY,
      [
        {
          delivery: {
            idWebhook: 1,
            jobId: '00000000-0000-0000-0000-000000000000',
            eventId: '1',
            eventType: 'account.created',
            payload: {},
            replayOf: null,
          },
          attempt: { at: '2026-01-01T00:00:00.000Z', status: 200, durationMs: 5 },
          state: 'delivered',
        },
      ],
      IN_TRANSACTION,
    ],
  })
  async recordAttempts(
    _system: SystemScope,
    attempts: RecordedAttempt[],
    tx?: Transaction,
  ): Promise<void> {
    const rows = attempts.map(({ delivery, attempt, state }) => ({
      id_webhook: delivery.idWebhook,
      job_id: delivery.jobId,
      event_id: delivery.eventId,
      event_type: delivery.eventType,
      payload: delivery.payload,
      replay_of: delivery.replayOf,
      attempt,
      state,
    }));
    await this.sql.run(
      `WITH saved AS (
         INSERT INTO webhook_delivery
                (id_webhook, job_id, event_id, event_type, payload, replay_of, attempts, state)
         SELECT w.key, a.job_id, a.event_id, a.event_type, a.payload, a.replay_of,
                CASE WHEN a.attempt IS NULL THEN '[]' ELSE jsonb_build_array(a.attempt) END,
                a.state
           FROM json_to_recordset($1::json) AS a(id_webhook int8, job_id uuid, event_id text,
                  event_type text, payload json, replay_of int8, attempt jsonb, state text)
           JOIN webhook w ON w.key = a.id_webhook
         ON CONFLICT (job_id) DO UPDATE
            SET attempts = webhook_delivery.attempts || EXCLUDED.attempts,
                -- Ended stays ended, but for a failed one retried by hand that gets through.
                state = CASE WHEN webhook_delivery.state IN ('delivered', 'cancelled')
                               OR (webhook_delivery.state = 'failed' AND EXCLUDED.state <> 'delivered')
                             THEN webhook_delivery.state ELSE EXCLUDED.state END
         RETURNING id_webhook, state)
       UPDATE webhook SET failures_in_row = 0
        WHERE key IN (SELECT id_webhook FROM saved WHERE state = 'delivered')
          AND failures_in_row <> 0`,
      [pgJson(rows)],
      tx,
    );
  }

  @GenerateSql({ params: [DELIVERY, 1, 'cancelled'] })
  async setState(_system: SystemScope, key: number, state: DeliveryState): Promise<void> {
    await this.sql.run(`UPDATE webhook_delivery SET state = $2 WHERE key = $1`, [key, state]);
  }

  /**
   * Counts a failed attempt; at `limit` in a row, turns the webhook off with `reason`.
   * Whether this attempt turned it off.
   */
  @GenerateSql({ params: [DELIVERY, 1, 100, 'failed', IN_TRANSACTION] })
  async failed(
    _system: SystemScope,
    webhook: number,
    limit: number,
    reason: string,
    tx: Transaction,
  ): Promise<boolean> {
    const { rows } = await this.sql.changed(
      `UPDATE webhook SET failures_in_row = failures_in_row + 1,
              active = active AND failures_in_row + 1 < $2,
              disabled_reason = CASE WHEN active AND failures_in_row + 1 >= $2 THEN $3
                                     ELSE disabled_reason END
        WHERE key = $1
        RETURNING disabled_reason = $3 AND failures_in_row = $2 AS "turnedOff"`,
      [webhook, limit, reason],
      tx,
    );
    return (rows[0] as { turnedOff: boolean } | undefined)?.turnedOff === true;
  }
}
