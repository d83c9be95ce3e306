import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AssertionError } from 'node:assert';
import { ConfigService } from '@nestjs/config';
import {
  PgBoss,
  type JobInsert,
  type JobWithMetadata,
  type Queue,
  type SendOptions,
  type UpdateQueueOptions,
} from 'pg-boss';
import type { Tenant } from '../access/access.tenant';
import type { Environment } from '../config/environment';
import { DATABASE_URL } from '../database/database.module';
import { pgJsonSafe } from '../database/pg-json';
import { Transaction } from '../database/transaction';
import { JobsRepository } from './jobs.repository';

/** A job as its handler gets it. */
export interface QueuedJob<T> {
  id: string;
  name: string;
  data: T;
  /** 0 on the first attempt, then how many attempts failed before this one… */
  retryCount: number;
  /** …and how many retries it has: the run whose retryCount reaches it is the last. */
  retryLimit: number;
}

/** A job that failed its every attempt, as its dead letter keeps it. */
export interface DeadJob {
  /** The dead letter's id (what a retry names)… */
  id: string;
  /** …and the id of the job that failed (what its sender was given). */
  jobId: string | null;
  /** The queue it failed on. */
  queue: string;
  /** The last failure's message. */
  error: string | null;
  /** How many attempts were made. */
  attempts: number;
  createdOn: Date;
  failedAt: Date;
}

/**
 * What the app's jobs carry around their own data: whose job it is (its organization's
 * administrators see it fail and retry it) and the user its handler acts as.
 */
export interface JobEnvelope<T> {
  organization: number | null;
  actor: number | null;
  payload: T;
}

/** How a queue's jobs are kept and tried again (pg-boss's queue options). */
export type QueueSettings = Omit<Queue, 'name'>;

/** What a job may ask at sending: a delay, a key, its own retries. */
export type JobOptions = Pick<
  SendOptions,
  | 'startAfter'
  | 'singletonKey'
  | 'singletonSeconds'
  | 'retryLimit'
  | 'retryDelay'
  | 'retryBackoff'
  | 'retryDelayMax'
  | 'expireInSeconds'
  | 'priority'
>;

/** Poll a queue this often when no notification came (pg-boss's floor is half a second). */
const POLLING_SECONDS = 2;

/** pg-boss's schema, which pg-boss makes and migrates itself. */
export const QUEUE_SCHEMA = 'pgboss';

/**
 * Where every queue's jobs go once they failed their every attempt: pg-boss's dead letter
 * queue, worked by none, listed to administrators and retried by them.
 */
export const DEAD_LETTERS = 'dead-letters';

/**
 * How often pg-boss's supervisor takes back the jobs of a worker that died with them (each
 * is due again once its queue's expireInSeconds has passed since it began).
 */
const SUPERVISE_SECONDS = 10;

/**
 * A queue's settings as pg-boss has them when none is given: what `declare` sets an option
 * the code no longer gives back to.
 */
const QUEUE_DEFAULTS = {
  expireInSeconds: 900,
  retentionSeconds: 1_209_600,
  deleteAfterSeconds: 604_800,
  retryLimit: 2,
  retryDelay: 0,
  retryBackoff: false,
  retryDelayMax: null,
  heartbeatSeconds: null,
  warningQueueSize: 0,
} satisfies UpdateQueueOptions;

/**
 * The job queue: pg-boss on the app's own PostgreSQL (its tables in schema `pgboss`, made
 * and migrated by pg-boss as it starts, under its own lock), so jobs need nothing else to
 * run and every instance shares them; its tables are read through its API only. A job sent
 * inside a transaction is written by that transaction: it exists if and only if the write
 * that asked for it committed. Workers and schedules run only where JOBS is true.
 */
@Injectable()
export class JobQueue implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(JobQueue.name);
  private readonly boss: PgBoss;
  /** Whether this instance works queues (JOBS); any instance may send. */
  readonly works: boolean;
  private readonly declared = new Set<string>();

  constructor(
    @Inject(DATABASE_URL) databaseUrl: string,
    private readonly jobs: JobsRepository,
    config: ConfigService<Environment, true>,
  ) {
    this.works = config.get('JOBS', { infer: true }) === 'true';
    this.boss = new PgBoss({
      connectionString: databaseUrl,
      schema: QUEUE_SCHEMA,
      max: config.get('JOBS_POOL_SIZE', { infer: true }),
      application_name: 'atrium jobs',
      // An instance that works no queue keeps neither schedules nor maintenance.
      supervise: this.works,
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      schedule: this.works,
      // Workers woken at once when a job is created, instead of at their next poll.
      useListenNotify: this.works,
    });
    this.boss.on('error', (error) => this.logger.error(error, 'job queue'));
  }

  async onModuleInit(): Promise<void> {
    await this.boss.start();
    await this.boss.createQueue(DEAD_LETTERS);
  }

  async onApplicationShutdown(): Promise<void> {
    // Jobs under way get a few seconds to end; those that do not are tried again later.
    await this.boss.stop({ graceful: true, timeout: 5_000 });
  }

  /**
   * This instance takes no more jobs, once those under way have ended; its sends still
   * go (another instance works them). For a suite that counts one request's statements.
   */
  async stopWorking(): Promise<void> {
    await Promise.all([...this.declared].map((name) => this.boss.offWork(name, { wait: true })));
  }

  /** Jobs this instance's workers are running now (what a shutdown lets finish). */
  jobsUnderWay(): number {
    return this.boss.getWipData().reduce((sum, worker) => sum + worker.count, 0);
  }

  /**
   * Makes the queue `name` (nothing when it exists: another instance may be making it at
   * once), then brings its settings to `settings`, but for its policy: an option the code no
   * longer gives is set back to pg-boss's default. Its dead letters go to DEAD_LETTERS.
   */
  async declare(name: string, settings: QueueSettings = {}): Promise<void> {
    const { policy, partition, ...given } = settings;
    const options = { ...QUEUE_DEFAULTS, ...given, notify: true, deadLetter: DEAD_LETTERS };
    const created = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== null));
    await this.boss.createQueue(name, { ...created, policy, partition });
    await this.boss.updateQueue(name, options);
    this.declared.add(name);
  }

  /**
   * Sends a job; inside `tx` it is written by that transaction (nothing if it rolls back).
   * Returns its id, or null when a singleton key or throttle turned it away.
   */
  async send(
    name: string,
    data: JobEnvelope<unknown>,
    options: JobOptions = {},
    tx?: Transaction,
  ): Promise<string | null> {
    if (!this.declared.has(name)) throw new Error(`No @Job handler takes jobs named "${name}"`);
    // pg-boss writes the data as jsonb: a handler's text may hold what jsonb refuses.
    return this.boss.send(name, pgJsonSafe(data), {
      ...options,
      ...(tx ? { db: this.jobs.executorIn(tx) } : {}),
    });
  }

  /** Several jobs of one queue in one statement, inside `tx`. */
  async insert(name: string, jobs: JobInsert[], tx: Transaction): Promise<void> {
    if (jobs.length > 0) await this.boss.insert(name, jobs, { db: this.jobs.executorIn(tx) });
  }

  /** When the job `id` of `name` runs next; null when it is not waiting to. */
  async nextRun(name: string, id: string): Promise<Date | null> {
    const [job] = await this.boss.findJobs(name, { id });
    return job && (job.state === 'created' || job.state === 'retry') ? job.startAfter : null;
  }

  /**
   * Runs `handler` for each job of `name`, `concurrency` at a time, where this instance
   * works queues. A handler that throws fails the attempt: tried again as the queue says.
   */
  async work<T>(
    name: string,
    handler: (job: QueuedJob<T>) => Promise<void>,
    { concurrency = 1 }: { concurrency?: number } = {},
  ): Promise<void> {
    await this.workBatches<T>(
      name,
      async ([job]) => {
        try {
          await handler(job);
          return new Map();
        } catch (error) {
          return new Map([[job.id, error instanceof Error ? error : new Error(String(error))]]);
        }
      },
      { batchSize: 1, workers: concurrency },
    );
  }

  /**
   * Runs `handler` for up to `batchSize` jobs of `name` at once, on `workers` workers, where
   * this instance works queues: one statement takes the batch and one ends it, however many
   * jobs it holds. The handler says which jobs failed (an Error each): those are tried
   * again as the queue says; a throw fails the whole batch.
   */
  async workBatches<T>(
    name: string,
    handler: (jobs: QueuedJob<T>[]) => Promise<Map<string, Error>>,
    { batchSize, workers }: { batchSize: number; workers: number },
  ): Promise<void> {
    if (!this.works) return;
    // A worker each, not one with localConcurrency: a worker that ended its jobs fetches the
    // next at once (a queue with more waiting, or a key's next job in order), and only a
    // worker's own id can be woken; pg-boss would otherwise wait out its poll between jobs.
    for (let i = 0; i < workers; i++) {
      const started: { worker?: string } = {};
      started.worker = await this.boss.work(
        name,
        {
          batchSize,
          perJobResults: true,
          includeMetadata: true,
          pollingIntervalSeconds: POLLING_SECONDS,
          // Polled as often when new jobs are announced: a retry coming due is not.
          notifyPollingIntervalSeconds: POLLING_SECONDS,
        },
        async (jobs: JobWithMetadata<T>[]) => {
          const failed = await handler(
            jobs.map(({ id, data, retryCount, retryLimit }) => ({
              id,
              name,
              data,
              retryCount,
              retryLimit,
            })),
          );
          if (started.worker) this.boss.notifyWorker(started.worker);
          return jobs.map(({ id }) => {
            const error = failed.get(id);
            return error
              ? { id, status: 'failed' as const, output: { message: error.message } }
              : { id, status: 'completed' as const };
          });
        },
      );
    }
  }

  /**
   * Sends each job of `schedules` (name → cron, UTC) a job at each of its times, once across
   * every instance; a schedule neither there nor in `kept` (those of other live instances)
   * is no longer in any code, and is ended.
   */
  async schedule(schedules: Map<string, string>, kept: ReadonlySet<string>): Promise<void> {
    if (!this.works) return;
    for (const [name, cron] of schedules) await this.boss.schedule(name, cron, null, { tz: 'UTC' });
    for (const { name, key } of await this.boss.getSchedules()) {
      if (!schedules.has(name) && !kept.has(name)) await this.boss.unschedule(name, key);
    }
  }

  /**
   * The organization's dead letters, oldest first (the order pg-boss pages them in), from
   * after its dead letter `after` when given; undefined when it has no such dead letter.
   */
  async deadJobs(tenant: Tenant, limit: number, after?: string): Promise<DeadJob[] | undefined> {
    const data = { organization: tenant.organizationKey };
    if (after !== undefined) {
      const [anchor] = await this.boss.findJobs(DEAD_LETTERS, { id: after, data });
      if (!anchor) return undefined;
    }
    try {
      const dead = await this.boss.findJobs<JobEnvelope<unknown>>(DEAD_LETTERS, {
        data,
        limit,
        after,
      });
      return dead.map(deadJobOf);
    } catch (error) {
      // The anchor was retried or swept between the two reads.
      if (after !== undefined && error instanceof AssertionError) return undefined;
      throw error;
    }
  }

  /**
   * Tries the organization's dead letter `id` once more, at once; false when it has none.
   * The job is retried where it failed while that queue keeps it (a record's next events
   * still wait behind it there), else sent to that queue again.
   */
  async retryDead(tenant: Tenant, id: string): Promise<boolean> {
    const [dead] = await this.boss.findJobs(DEAD_LETTERS, {
      id,
      data: { organization: tenant.organizationKey },
    });
    if (!dead) return false;
    const { sourceName, sourceId } = dead;
    if (sourceName && sourceId && (await this.retriedInPlace(sourceName, sourceId))) {
      await this.boss.deleteJob(DEAD_LETTERS, id);
    } else {
      await this.boss.redrive(DEAD_LETTERS, { ids: [id] });
    }
    return true;
  }

  private async retriedInPlace(name: string, id: string): Promise<boolean> {
    const [failed] = await this.boss.findJobs(name, { id });
    if (failed?.state !== 'failed') return false;
    await this.boss.retry(name, id);
    return true;
  }
}

function deadJobOf(job: JobWithMetadata<unknown>): DeadJob {
  const output = job.sourceOutput as { message?: string } | null;
  return {
    id: job.id,
    jobId: job.sourceId,
    queue: job.sourceName ?? job.name,
    error: output?.message ?? null,
    attempts: (job.sourceRetryCount ?? 0) + 1,
    createdOn: job.sourceCreatedOn ?? job.createdOn,
    failedAt: job.createdOn,
  };
}
