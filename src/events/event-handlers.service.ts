import { DiscoveredMethod, ProviderDiscovery } from '../common/provider-discovery';
import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Identity } from '../common/identity';
import { DataService } from '../data/data.service';
import type { ScopedData } from '../data/scoped-data';
import { EntityRegistry } from '../model/entity.registry';
import { JobEnvelope, JobQueue, QueueSettings } from '../queue/job-queue.service';
import { EntityEvent, EVENT_OPERATIONS, unknownOperations, whyNoEvents } from './entity-event';
import type { AnnouncedSubscriber } from './event-dispatch.repository';
import {
  ANNOUNCEMENT_SECONDS,
  AnnouncedHandler,
  EventHandlerRepository,
} from './event-handler.repository';
import type { EventRouter } from './event-router';
import {
  EntityEventSubscription,
  JOB_HANDLER,
  JobHandlerOptions,
  ON_ENTITY_EVENT,
} from './event.decorators';
import { JobIdentities } from './job-identities.service';

/** What a subscriber or a job handler is given beside the event or the job's data. */
export interface HandlerContext {
  /** The job's id: the same on every attempt. */
  jobId: string;
  /** 1 on the first attempt. */
  attempt: number;
  /**
   * The user who made the change (an event) or sent the job, as now; undefined when no
   * user did (the CLI, first boot, a schedule) or the user is no longer active.
   */
  actor?: Identity;
  /**
   * Runs `work` in a new transaction with ScopedData acting as `actor`, committed when it
   * resolves (rejected when there is no actor). Outside it the handler holds no
   * connection, however long it waits on others.
   */
  transaction<T>(work: (data: ScopedData) => Promise<T>): Promise<T>;
}

type Method = (first: unknown, context: HandlerContext) => Promise<unknown>;

interface Subscriber extends EntityEventSubscription {
  queue: string;
  run: Method;
}

interface JobHandler extends JobHandlerOptions {
  name: string;
  run: Method;
}

/** A subscriber's queue: retried with backoff (up to ten minutes apart), in order per record. */
const SUBSCRIBER_QUEUE: QueueSettings = {
  policy: 'key_strict_fifo',
  retryLimit: 10,
  retryDelay: 1,
  retryBackoff: true,
  retryDelayMax: 600,
};

/**
 * The `@OnEntityEvent` and `@Job` methods of every provider, found once at boot: each gets
 * a queue of its own and, where this instance works queues, a worker; `@Job` schedules
 * are declared. An instance that works queues announces its subscribers and schedules
 * (event_handler), refreshed by a heartbeat: the dispatcher, whichever instance it runs on,
 * routes each event to the subscribers of them all, and a schedule no live instance has is
 * ended at the next boot.
 */
/** Where a pass's events go: the subscribers of each. */
export interface Subscriptions {
  any: boolean;
  /** The queues of the subscribers to this operation on records of `entity`. */
  of(entity: string, operation: string): string[];
}

@Injectable()
export class EventHandlers
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger(EventHandlers.name);
  /** This process, as it announces its handlers. */
  private readonly instance = randomUUID();
  private heartbeat?: NodeJS.Timeout;
  private readonly subscribers: Subscriber[] = [];
  private readonly jobs = new Map<string, JobHandler>();
  private readonly eventRouters: EventRouter[] = [];
  private declaredAll!: () => void;
  /** Settled once every handler's queue exists (the dispatcher sends into them). */
  readonly declared = new Promise<void>((done) => (this.declaredAll = done));

  constructor(
    private readonly discovery: ProviderDiscovery,
    private readonly queue: JobQueue,
    private readonly data: DataService,
    private readonly identities: JobIdentities,
    private readonly entities: EntityRegistry,
    private readonly announcements: EventHandlerRepository,
  ) {}

  onModuleInit(): void {
    const runner =
      ({ instance, method }: DiscoveredMethod<unknown>): Method =>
      (first, context) =>
        method.call(instance, first, context) as Promise<unknown>;
    for (const found of this.discovery.methodsWith<EntityEventSubscription>(ON_ENTITY_EVENT)) {
      const queue = `event/${found.metatype.name}.${found.name}`;
      this.addSubscriber({ ...found.metadata, queue, run: runner(found) });
    }
    type JobMetadata = JobHandlerOptions & { name: string };
    for (const found of this.discovery.methodsWith<JobMetadata>(JOB_HANDLER)) {
      this.addJob(
        { ...found.metadata, run: runner(found) },
        `${found.metatype.name}.${found.name}`,
      );
    }
  }

  /** After every module's init, when the entity registry is complete: a typo fails the boot. */
  async onApplicationBootstrap(): Promise<void> {
    for (const { entity, operations, queue } of this.subscribers) {
      const problem = whyNoEvents(this.entities, entity);
      if (problem) throw new Error(`${queue} subscribes to ${entity}: ${problem}`);
      const unknown = unknownOperations(operations);
      if (unknown.length > 0) {
        throw new Error(
          `${queue}: ${unknown.join(', ')} is not one of ${EVENT_OPERATIONS.join(', ')}`,
        );
      }
    }
    for (const subscriber of this.subscribers) {
      await this.queue.declare(subscriber.queue, SUBSCRIBER_QUEUE);
    }
    for (const {
      name,
      schedule: _schedule,
      concurrency: _concurrency,
      run: _run,
      ...settings
    } of this.jobs.values()) {
      await this.queue.declare(name, settings);
    }
    for (const router of this.eventRouters) await router.declare();
    this.declaredAll();
    for (const { queue, run, concurrency } of this.subscribers) {
      await this.queue.work<JobEnvelope<EntityEvent>>(
        queue,
        (job) => this.runHandler(run, job.data.payload, job, job.data),
        { concurrency },
      );
    }
    const schedules = new Map<string, string>();
    for (const { name, schedule, concurrency, run } of this.jobs.values()) {
      await this.queue.work<JobEnvelope<unknown> | null>(
        name,
        (job) => this.runHandler(run, job.data?.payload ?? null, job, job.data ?? undefined),
        { concurrency },
      );
      if (schedule) schedules.set(name, schedule);
    }
    if (!this.queue.works) return;
    // Announced before scheduling: an instance booting beside this one keeps its schedules.
    await this.announcements.announce(this.instance, this.announced(schedules));
    this.heartbeat = setInterval(
      () => {
        this.announcements
          .heartbeat(this.instance)
          .catch((error: unknown) => this.logger.warn(error, 'announcing event handlers failed'));
      },
      (ANNOUNCEMENT_SECONDS * 1000) / 3,
    ).unref();
    const keep = await this.announcements.scheduledElsewhere(this.instance);
    await this.queue.schedule(schedules, new Set(keep));
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.heartbeat) return;
    clearInterval(this.heartbeat);
    // Not withdrawn (the database is gone): they go stale in ANNOUNCEMENT_SECONDS.
    await this.announcements
      .withdraw(this.instance)
      .catch((error: unknown) => this.logger.warn(error, 'withdrawing event handlers failed'));
  }

  /**
   * The subscribers events go to: this instance's and those live instances announce (an
   * instance of another version, during a rolling deploy).
   */
  subscriptions(announced: readonly AnnouncedSubscriber[]): Subscriptions {
    const all: { queue: string; entity: string; operations: readonly string[] }[] = [
      ...this.subscribers,
      ...announced.filter(({ queue }) => !this.subscribers.some((s) => s.queue === queue)),
    ];
    return {
      any: all.length > 0,
      of: (entity, operation) =>
        all
          .filter((s) => s.entity === entity && s.operations.includes(operation))
          .map(({ queue }) => queue),
    };
  }

  /** Whether any event may go anywhere: a subscriber, or a router (which data may feed). */
  get anyDestination(): boolean {
    return this.subscribers.length > 0 || this.eventRouters.length > 0;
  }

  get routers(): readonly EventRouter[] {
    return this.eventRouters;
  }

  /** Adds a router; before the app boots (a module's onModuleInit). */
  addRouter(router: EventRouter): void {
    this.eventRouters.push(router);
  }

  private announced(schedules: Map<string, string>): AnnouncedHandler[] {
    return [
      ...this.subscribers.map(({ queue, entity, operations }) => ({
        queue,
        entity,
        operations,
        schedule: null,
      })),
      ...[...schedules].map(([queue, schedule]) => ({
        queue,
        entity: null,
        operations: null,
        schedule,
      })),
    ];
  }

  private addSubscriber(subscriber: Subscriber): void {
    if (this.subscribers.some((s) => s.queue === subscriber.queue)) {
      throw new Error(`Two subscribers are named ${subscriber.queue}: rename a class or a method`);
    }
    this.subscribers.push(subscriber);
  }

  private addJob(handler: JobHandler, where: string): void {
    if (this.jobs.has(handler.name)) {
      throw new Error(`Two handlers take jobs named "${handler.name}": the second is ${where}`);
    }
    this.jobs.set(handler.name, handler);
  }

  private async runHandler(
    run: Method,
    first: unknown,
    job: { id: string; name: string; retryCount: number },
    sender: Pick<JobEnvelope<unknown>, 'organization' | 'actor'> | undefined,
  ): Promise<void> {
    const actor = await this.identities.of(sender?.organization, sender?.actor, job.name);
    await run(first, {
      jobId: job.id,
      attempt: job.retryCount + 1,
      actor,
      transaction: (work) => {
        if (!actor) {
          return Promise.reject(new Error(`${job.name}: no active user to act as`));
        }
        return this.data.transaction(actor, work);
      },
    });
  }
}
