import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  TransactionCommitEvent,
} from 'typeorm';
import { AccessService } from './access.service';

/** The channel the access tables' triggers notify (migration AccessControl). */
const CHANNEL = 'atrium_access';
/**
 * How the listening connection shows in pg_stat_activity; the bench (bench/pg-proxy.js)
 * knows it by this name and leaves it alone.
 */
const LISTENER_APPLICATION_NAME = 'atrium access listener';
const CHANGED = 'atrium:access-changed';
const RECONNECT_MS = 1000;
/**
 * A connection can die without a word (a half-open TCP link after a network fault): it is
 * asked something every HEARTBEAT_MS and given up when no answer comes within
 * HEARTBEAT_TIMEOUT_MS, so caches never outlive a deaf listener by more than ~3 s.
 */
const HEARTBEAT_MS = 1000;
const HEARTBEAT_TIMEOUT_MS = 2000;

/** Marks the transaction of `manager` as one that changes who may do what. */
export function markAccessChanged(manager: EntityManager): void {
  const data = manager.queryRunner?.data;
  if (data) data[CHANGED] = true;
}

/**
 * Keeps AccessService's caches true. Writes to roles, privileges, user roles and units
 * fire a statement trigger that notifies CHANNEL, which every instance LISTENs to on a
 * connection of its own (PostgreSQL delivers it at commit, so other instances forget
 * within milliseconds). A notification arrives asynchronously, so a write through this
 * instance's entity engine also forgets when its transaction commits: the writer's next
 * request already sees the change. While the listening connection is down nothing is
 * cached (see AccessService), and it reconnects every second.
 */
@Injectable()
export class AccessChanges
  implements EntitySubscriberInterface, OnApplicationBootstrap, OnModuleDestroy
{
  private readonly logger = new Logger(AccessChanges.name);
  private client?: Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: AccessService,
  ) {
    dataSource.subscribers.push(this);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    if ((event.queryRunner.data as Record<string, unknown> | undefined)?.[CHANGED]) {
      this.access.forget();
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.listen();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    await this.client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const options = this.dataSource.options as { url?: string };
    const client = new Client({
      connectionString: options.url,
      keepAlive: true,
      application_name: LISTENER_APPLICATION_NAME,
    });
    client.on('notification', () => this.access.forget());
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.client = client;
      this.heartbeat = setInterval(() => this.check(client), HEARTBEAT_MS).unref();
      this.access.cacheScopes(true);
    } catch (error) {
      this.logger.warn(`Cannot listen for access changes: ${(error as Error).message}`);
      this.lost(client);
    }
  }

  private check(client: Client): void {
    const deadline = setTimeout(() => this.lost(client), HEARTBEAT_TIMEOUT_MS).unref();
    client.query('SELECT 1').then(
      () => clearTimeout(deadline),
      () => {
        clearTimeout(deadline);
        this.lost(client);
      },
    );
  }

  private lost(client: Client): void {
    client.end().catch(() => undefined);
    // A late word from a connection already replaced changes nothing.
    if (this.client !== client && this.client !== undefined) return;
    this.client = undefined;
    clearInterval(this.heartbeat);
    this.access.cacheScopes(false);
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) void this.listen();
    }, RECONNECT_MS);
  }
}
