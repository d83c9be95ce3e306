import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setTimeout } from 'node:timers/promises';
import { Webhook as Signer } from 'standardwebhooks';
import { systemScope } from '../access/access.tenant';
import { ChangeLog, SYSTEM_ACTOR } from '../changes/change-log.service';
import { Slots } from '../common/slots';
import type { Environment } from '../config/environment';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { uuidOfKeys } from '../queue/job-id';
import type { JobInsert } from 'pg-boss';
import { JobQueue, type JobEnvelope, type QueuedJob } from '../queue/job-queue.service';
import type { DeliveryAttempt, DeliveryState } from './entities/webhook-delivery.entity';
import { WebhookAddresses, WebhookTargetError } from './webhook-addresses';
import {
  DeliveryJob,
  EventDelivery,
  firstRetrySeconds,
  ReadyDelivery,
  stepOf,
} from './webhook-jobs';
import { OwnedEvent, WebhookPayloads } from './webhook-payloads';
import { TransportResult, WebhookTransport } from './webhook-transport';
import {
  DELIVERY_QUEUE,
  NewDelivery,
  RecordedAttempt,
  WebhookRepository,
  WebhookTarget,
} from './webhook.repository';

/** Webhooks of every organization are routed and delivered from one queue. */
const DELIVERY = systemScope('webhook-delivery');

/**
 * How long a dispatcher pass waits for its first attempts' answers. A receiver that answers
 * later holds no pass up (the other webhooks' events wait behind it): its delivery waits
 * as a job, and its answer is recorded when it comes.
 */
const FIRST_ANSWER_WAIT_MS = 200;
/** At shutdown, how long attempts already sent may take to be answered and recorded. */
const SHUTDOWN_WAIT_MS = 5_000;

/** An event the dispatcher routes to a webhook. */
export interface RoutedDelivery extends OwnedEvent {
  webhook: WebhookTarget;
  /** Its change-log entry's key: with the webhook's, the delivery's id in the queue. */
  entryKey: number;
  /** Whose the job is, should the delivery need one (JobEnvelope). */
  organization: number | null;
  actor: number | null;
}

/** A delivery to attempt. */
interface Planned {
  /** The delivery's job: the one that made it (see ReadyDelivery.delivery)… */
  jobId: string;
  /** …and the job running now, when a job runs it. */
  runId?: string;
  envelope: Omit<JobEnvelope<unknown>, 'payload'>;
  webhook: WebhookTarget;
  /** The delivery as recorded (its body only where the change log does not hold it)… */
  delivery: NewDelivery;
  /** …and the body sent. */
  body: object;
  /** Whether no attempt follows this one: a failure fails the delivery. */
  last: boolean;
}

/** An attempt made (or, with none, a delivery left to its job), with its delivery's state. */
interface Outcome extends Planned {
  attempt: DeliveryAttempt | null;
  state: DeliveryState;
}

/** What an attempt under way resolves to when it was never begun (late, or closing). */
type Attempting = Promise<DeliveryAttempt | undefined>;

/**
 * Makes deliveries' attempts: each signed afresh, sent to the address checked for it, and
 * recorded; a failed one is tried again by the queue, the last marks the delivery failed,
 * and a run of them turns the webhook off.
 *
 * An event's first attempt is made by the dispatcher pass that routes it and recorded by
 * that pass's transaction, with its position in the change log: no job is written for a
 * delivery answered at once, and a crash before the commit leaves the entries to be read
 * and sent again (at least once; the `webhook-id` tells a repeat). Retries, tests, replays
 * and the attempts a pass could not wait for are jobs.
 */
@Injectable()
export class WebhookDeliveries implements BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveries.name);
  private readonly timeoutMs: number;
  private readonly disableAfter: number;
  private readonly retries: number;
  /** When a dispatched delivery's job comes due. */
  private readonly firstRetrySeconds: number;
  /**
   * How late after its dispatch a first attempt may still begin: it ends, and is recorded,
   * before its job is due.
   */
  private readonly attemptWithinMs: number;
  /** WEBHOOK_CONCURRENCY: this instance's attempts under way at once. */
  private readonly slots: Slots;
  /** First attempts answered after their pass, until recorded. */
  private readonly late = new Set<Promise<void>>();
  private closing = false;

  constructor(
    private readonly repository: WebhookRepository,
    private readonly addresses: WebhookAddresses,
    private readonly transport: WebhookTransport,
    private readonly payloads: WebhookPayloads,
    private readonly transactions: Transactions,
    private readonly changeLog: ChangeLog,
    private readonly queue: JobQueue,
    config: ConfigService<Environment, true>,
  ) {
    this.timeoutMs = config.get('WEBHOOK_TIMEOUT_MS', { infer: true });
    this.disableAfter = config.get('WEBHOOK_DISABLE_AFTER', { infer: true });
    this.retries = config.get('WEBHOOK_RETRIES', { infer: true });
    this.slots = new Slots(config.get('WEBHOOK_CONCURRENCY', { infer: true }));
    this.firstRetrySeconds = firstRetrySeconds(config);
    this.attemptWithinMs = this.firstRetrySeconds * 1000 - 3 * this.timeoutMs;
  }

  async beforeApplicationShutdown(): Promise<void> {
    // No new first attempts (their jobs make them); those sent get a few seconds to be
    // answered and recorded while the database is up. The timer holds no process open.
    this.closing = true;
    await Promise.race([
      Promise.all(this.late),
      setTimeout(SHUTDOWN_WAIT_MS, undefined, { ref: false }),
    ]);
  }

  /**
   * The first attempts of the deliveries a dispatcher pass routes, recorded by its
   * transaction `tx`: with their outcome when answered within FIRST_ANSWER_WAIT_MS, else
   * pending with a job due at the first retry's time (its answer recorded when it comes).
   */
  async dispatch(routed: RoutedDelivery[], tx: Transaction): Promise<void> {
    // With no retry, a delivery's one attempt is its job's: a failure leaves it a dead letter.
    if (this.retries === 0) {
      return this.queue.insert(DELIVERY_QUEUE, routed.map(deciderJob), tx);
    }
    const decide = this.payloads.decider();
    const planned: Planned[] = [];
    const undecided: JobInsert[] = [];
    for (const route of routed) {
      const { webhook, entryKey, organization, actor, event, owner } = route;
      const jobId = uuidOfKeys(webhook.key, entryKey);
      // A delivery that cannot be decided (its condition no longer compiles) goes to the
      // queue at once, where it fails alone and is tried again.
      const payload = await decide(webhook, { event, owner }).catch(() => {
        undecided.push(deciderJob(route));
        return undefined;
      });
      if (!payload) continue;
      const delivery = { idWebhook: webhook.key, jobId, eventId: event.id, eventType: event.type };
      planned.push({
        jobId,
        envelope: { organization, actor },
        webhook,
        delivery: { ...delivery, payload: this.payloads.stored(payload), replayOf: null },
        body: payload,
        last: false,
      });
    }
    const startBy = Date.now() + this.attemptWithinMs;
    const attempts = planned.map((plan) =>
      this.attemptInTurn(plan, () => !this.closing && Date.now() < startBy),
    );
    const answers = await answeredWithin(attempts, FIRST_ANSWER_WAIT_MS);
    const outcomes: Outcome[] = [];
    const late: { plan: Planned; attempting: Attempting }[] = [];
    planned.forEach((plan, i) => {
      const answer = answers[i];
      if (answer) outcomes.push(this.outcomeOf(plan, answer));
      else {
        outcomes.push({ ...plan, attempt: null, state: 'pending' });
        late.push({ plan, attempting: attempts[i] });
      }
    });
    await this.record(outcomes, tx);
    // A retry's job: its first attempt was made here (or is under way), so one retry fewer.
    const retries = outcomes
      .filter(({ state }) => state === 'retrying' || state === 'pending')
      .map(({ jobId, envelope, webhook }) => ({
        id: jobId,
        data: { ...envelope, payload: { webhook: webhook.key } satisfies ReadyDelivery },
        startAfter: this.firstRetrySeconds,
        retryLimit: this.retries - 1,
      }));
    await this.queue.insert(DELIVERY_QUEUE, [...retries, ...undecided], tx);
    if (late.length === 0) return;
    // Recorded once the pass has committed: a pass rolled back sends its entries again.
    this.transactions.afterCommit(tx, () => {
      for (const { plan, attempting } of late) {
        const recording = this.recordLate(plan, attempting)
          .catch((error: unknown) =>
            this.logger.error(
              error,
              'a late first attempt was not recorded; its job makes it again',
            ),
          )
          .finally(() => this.late.delete(recording));
        this.late.add(recording);
      }
    });
  }

  /**
   * A batch of delivery jobs from the queue (retries, tests, replays, deliveries no pass
   * attempted): the jobs that failed, each with why. A job fails when its attempt failed:
   * the queue tries it again, and its last failure makes it a dead letter.
   */
  async runBatch(jobs: QueuedJob<JobEnvelope<DeliveryJob>>[]): Promise<Map<string, Error>> {
    // A job that cannot be decided (its condition no longer compiles) fails alone.
    const failed = new Map<string, Error>();
    const planned = await this.plan(jobs, failed);
    const attempts = await Promise.all(planned.map((plan) => this.attemptInTurn(plan)));
    const outcomes = planned.map((plan, i) => this.outcomeOf(plan, attempts[i]!));
    await this.record(outcomes);
    for (const { runId, webhook, attempt, state } of outcomes) {
      if (state === 'delivered' || !runId) continue;
      const next = state === 'retrying' ? 'tried again later' : 'no attempt is left';
      failed.set(runId, new Error(`webhook ${webhook.key}: ${failureOf(attempt!)}; ${next}`));
    }
    return failed;
  }

  /**
   * The deliveries of jobs to attempt: as made before (a retry; a test's or replay's, made
   * by its request; a failed one, when an administrator retries its dead letter), or an
   * event's decided now; none for a webhook deleted, or turned off since the event (its
   * delivery then cancelled), or a delivery delivered or cancelled.
   */
  private async plan(
    jobs: QueuedJob<JobEnvelope<DeliveryJob>>[],
    failed: Map<string, Error>,
  ): Promise<Planned[]> {
    const webhooks = new Map(
      (
        await this.repository.targets(DELIVERY, [
          ...new Set(jobs.map((job) => job.data.payload.webhook)),
        ])
      ).map((webhook) => [webhook.key, webhook]),
    );
    const deliveryOf = (job: QueuedJob<JobEnvelope<DeliveryJob>>) =>
      ('delivery' in job.data.payload && job.data.payload.delivery) || job.id;
    const made = new Map(
      (await this.repository.byJobs(DELIVERY, jobs.map(deliveryOf))).map((delivery) => [
        delivery.jobId,
        delivery,
      ]),
    );
    const decide = this.payloads.decider();
    const planned: Planned[] = [];
    for (const job of jobs) {
      const { payload: work, ...envelope } = job.data;
      const next = stepOf(
        { ...job, data: work },
        webhooks.get(work.webhook),
        made.get(deliveryOf(job)),
      );
      if (next.step === 'none') continue;
      if (next.step === 'cancel') {
        await this.repository.setState(DELIVERY, next.existing.key, 'cancelled');
        continue;
      }
      const { webhook, last } = next;
      const common = { jobId: deliveryOf(job), runId: job.id, envelope, webhook, last };
      if (next.step === 'resend') {
        const { existing } = next;
        const body =
          existing.payload ??
          (await this.payloads.fromLog(DELIVERY.tenant(webhook.organization), existing.eventId));
        // Its event's history was purged: there is nothing left to send.
        if (!body) await this.repository.setState(DELIVERY, existing.key, 'cancelled');
        else planned.push({ ...common, delivery: existing, body });
        continue;
      }
      const payload = await decide(webhook, next.work).catch(
        (error: Error) => void failed.set(job.id, error),
      );
      if (!payload) continue;
      const { id: eventId, type: eventType } = next.work.event;
      const delivery = { idWebhook: webhook.key, jobId: job.id, eventId, eventType };
      const stored = this.payloads.stored(payload);
      planned.push({
        ...common,
        delivery: { ...delivery, payload: stored, replayOf: null },
        body: payload,
      });
    }
    return planned;
  }

  /**
   * An attempt in this instance's turn (WEBHOOK_CONCURRENCY at a time), never thrown;
   * undefined when `mayStart` says no once its turn comes.
   */
  private attemptInTurn(plan: Planned, mayStart: () => boolean = () => true): Attempting {
    return this.slots.run(async () => {
      if (!mayStart()) return undefined;
      return this.attempt(plan).catch((error: Error) => ({
        at: new Date().toISOString(),
        error: `not sent: ${error.message}`,
        durationMs: 0,
      }));
    });
  }

  /** One attempt, signed now; its failure (a refused address too) recorded, never thrown. */
  private async attempt({ webhook, delivery, body: sent }: Planned): Promise<DeliveryAttempt> {
    const at = new Date();
    const started = performance.now();
    let result: TransportResult;
    try {
      const url = this.addresses.parse(webhook.url);
      const target = await this.addresses.target(url);
      const body = JSON.stringify(sent);
      const signature = new Signer(webhook.secret).sign(delivery.eventId, at, body);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Atrium-Webhooks',
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      };
      result = await this.transport.post(url, target, headers, body, this.timeoutMs);
    } catch (error) {
      if (!(error instanceof WebhookTargetError)) throw error;
      result = { error: `refused: ${error.message}` };
    }
    return {
      at: at.toISOString(),
      ...result,
      durationMs: Math.round(performance.now() - started),
    };
  }

  private outcomeOf(plan: Planned, attempt: DeliveryAttempt): Outcome {
    const delivered = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;
    return { ...plan, attempt, state: delivered ? 'delivered' : plan.last ? 'failed' : 'retrying' };
  }

  /**
   * A first attempt answered after its pass, recorded. Its job stays: due at the first
   * retry's time, it makes the retry, or finds the delivery delivered and ends.
   */
  private async recordLate(plan: Planned, attempting: Attempting): Promise<void> {
    const attempt = await attempting;
    // Never begun: its job makes it.
    if (attempt) await this.record([this.outcomeOf(plan, attempt)]);
  }

  /**
   * Outcomes in one statement, the failures counted beside it: in `tx`, or in a
   * transaction of their own.
   */
  private async record(outcomes: Outcome[], tx?: Transaction): Promise<void> {
    if (outcomes.length === 0) return;
    const recorded: RecordedAttempt[] = outcomes.map(({ delivery, attempt, state }) => ({
      delivery,
      attempt,
      state,
    }));
    const failures = outcomes.filter(({ attempt, state }) => attempt && state !== 'delivered');
    if (!tx && failures.length === 0) {
      return this.repository.recordAttempts(DELIVERY, recorded);
    }
    await this.transactions.run(async (inTx) => {
      await this.repository.recordAttempts(DELIVERY, recorded, inTx);
      for (const { webhook, attempt } of failures) await this.countFailure(webhook, attempt!, inTx);
    }, tx);
  }

  private async countFailure(
    webhook: WebhookTarget,
    attempt: DeliveryAttempt,
    tx: Transaction,
  ): Promise<void> {
    const reason = `Turned off after ${this.disableAfter} failed attempts in a row; the last: ${failureOf(attempt)}`;
    if (!(await this.repository.failed(DELIVERY, webhook.key, this.disableAfter, reason, tx)))
      return;
    this.changeLog.record(tx, SYSTEM_ACTOR, [
      {
        operation: 'updated',
        entity: 'webhook',
        recordKey: webhook.key,
        owner: {
          organizationKey: webhook.organization,
          businessUnitKey: webhook.businessUnit,
          userKey: webhook.owner,
        },
        changes: {
          active: { old: true, new: false },
          disabled_reason: { old: null, new: reason },
        },
      },
    ]);
  }
}

/**
 * A job that decides an event's delivery and makes its attempts, due at once: for a
 * delivery the pass does not attempt.
 */
function deciderJob(route: RoutedDelivery): JobInsert<JobEnvelope<EventDelivery>> {
  const { webhook, entryKey, organization, actor, event, owner } = route;
  return {
    id: uuidOfKeys(webhook.key, entryKey),
    data: { organization, actor, payload: { webhook: webhook.key, event, owner } },
  };
}

/** Each attempt's answer as it stands after `waitMs` (undefined: not yet, or never begun). */
async function answeredWithin(
  attempts: Attempting[],
  waitMs: number,
): Promise<(DeliveryAttempt | undefined)[]> {
  const answers: (DeliveryAttempt | undefined)[] = attempts.map(() => undefined);
  await Promise.race([
    Promise.all(attempts.map((attempting, i) => attempting.then((a) => (answers[i] = a)))),
    setTimeout(waitMs, undefined, { ref: false }),
  ]);
  return [...answers];
}

function failureOf({ status, error }: DeliveryAttempt): string {
  return error ?? `HTTP ${status}`;
}
