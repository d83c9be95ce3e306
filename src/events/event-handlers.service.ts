import { DiscoveredMethod, ProviderDiscovery } from '../common/provider-discovery';
import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import type { Identity } from '../common/identity';
import { DataService } from '../data/data.service';
import type { ScopedData } from '../data/scoped-data';
import { EntityRegistry } from '../model/entity.registry';
import { JobEnvelope, JobQueue, QueueSettings } from '../queue/job-queue.service';
import { EntityEvent, EVENT_OPERATIONS, unknownOperations, whyNoEvents } from './entity-event';
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
 * are declared. The dispatcher asks it which subscribers an event goes to.
 */
@Injectable()
export class EventHandlers implements OnModuleInit, OnApplicationBootstrap {
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
    for (const subscriber of this.subscribers) {
      await this.queue.work<JobEnvelope<EntityEvent>>(subscriber.queue, (job) =>
        this.runHandler(subscriber.run, job.data.payload, job, job.data),
      );
    }
    for (const { name, schedule, concurrency, run } of this.jobs.values()) {
      await this.queue.work<JobEnvelope<unknown> | null>(
        name,
        (job) => this.runHandler(run, job.data?.payload ?? null, job, job.data ?? undefined),
        { concurrency },
      );
      if (schedule) await this.queue.schedule(name, schedule);
    }
  }

  /** The queues of the subscribers to this operation on records of `entity`. */
  subscribersOf(entity: string, operation: string): string[] {
    return this.subscribers
      .filter((s) => s.entity === entity && (s.operations as string[]).includes(operation))
      .map((s) => s.queue);
  }

  /** Whether any event may go anywhere: a subscriber, or a router (which data may feed). */
  get anyDestination(): boolean {
    return this.subscribers.length > 0 || this.eventRouters.length > 0;
  }

  /** The types whose records' events some subscriber takes. */
  get subscribedEntities(): string[] {
    return this.subscribers.map((s) => s.entity);
  }

  get anySubscriber(): boolean {
    return this.subscribers.length > 0;
  }

  get routers(): readonly EventRouter[] {
    return this.eventRouters;
  }

  /** Adds a router; before the app boots (a module's onModuleInit). */
  addRouter(router: EventRouter): void {
    this.eventRouters.push(router);
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
