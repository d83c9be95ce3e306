import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PgBoss, type JobInsert, type Queue, type SendOptions } from 'pg-boss';
import type { Environment } from '../config/environment';
import { DATABASE_URL } from '../database/database.module';
import { QUEUE_SCHEMA } from '../database/migrations/1795800000000-Jobs';
import { pgJsonSafe } from '../database/pg-json';
import { Transaction } from '../database/transaction';
import { JobsRepository } from './jobs.repository';

/** A job as its handler gets it. */
export interface QueuedJob<T> {
  id: string;
  name: string;
  data: T;
  /** 0 on the first attempt, then how many attempts failed before this one. */
  retryCount: number;
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

/**
 * The job queue: pg-boss on the app's own PostgreSQL (its tables in schema `pgboss`, made by
 * a migration), so jobs need nothing else to run and every instance shares them. A job sent
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
      // The migrations made the schema; pg-boss still migrates it on an upgrade.
      createSchema: false,
      // An instance that works no queue keeps neither schedules nor maintenance.
      supervise: this.works,
      schedule: this.works,
      // Workers woken at once when a job is created, instead of at their next poll.
      useListenNotify: this.works,
    });
    this.boss.on('error', (error) => this.logger.error(error, 'job queue'));
  }

  async onModuleInit(): Promise<void> {
    await this.boss.start();
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
   * once), then brings its settings to `settings`, but for its policy.
   */
  async declare(name: string, settings: QueueSettings = {}): Promise<void> {
    await this.boss.createQueue(name, { notify: true, ...settings });
    const { policy: _policy, partition: _partition, ...changeable } = settings;
    if (Object.keys(changeable).length > 0) await this.boss.updateQueue(name, changeable);
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

  /**
   * Deletes jobs that are no longer wanted (their work was done another way), unless a
   * worker has taken them meanwhile.
   */
  async remove(name: string, ids: string[]): Promise<void> {
    if (ids.length > 0) await this.jobs.deleteWaiting(name, ids);
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
      started.worker = await this.boss.work<T>(
        name,
        {
          batchSize,
          perJobResults: true,
          pollingIntervalSeconds: POLLING_SECONDS,
          // Polled as often when new jobs are announced: a retry coming due is not.
          notifyPollingIntervalSeconds: POLLING_SECONDS,
        },
        async (jobs) => {
          const failed = await handler(
            jobs.map((job) => ({ id: job.id, name, data: job.data, retryCount: job.retryCount })),
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

  /** Sends `name` a job at each time of `cron` (UTC), once across every instance. */
  async schedule(name: string, cron: string): Promise<void> {
    if (this.works) await this.boss.schedule(name, cron, null, { tz: 'UTC' });
  }

  /** Tries failed jobs again at once. */
  async retry(name: string, ids: string[]): Promise<void> {
    await this.boss.retry(name, ids);
  }
}
