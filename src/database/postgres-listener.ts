import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

/**
 * How the listening connection shows in pg_stat_activity (named for its first channel,
 * access changes); the bench (bench/pg-proxy.js) and the tests know it by this name.
 */
const LISTENER_APPLICATION_NAME = 'atrium access listener';
const RECONNECT_MS = 1000;
/**
 * A connection can die without a word (a half-open TCP link after a network fault): it is
 * asked something every HEARTBEAT_MS and given up when no answer comes within
 * HEARTBEAT_TIMEOUT_MS, so a listener is never deaf for more than ~3 s without knowing.
 */
const HEARTBEAT_MS = 1000;
const HEARTBEAT_TIMEOUT_MS = 2000;

/** What a listener is told: a notification, and whether it hears them (from now on). */
export interface Listening {
  /** What the notifications tell of, as a log line names it (`access changes`). */
  readonly about: string;
  onNotification(): void;
  /** `true` once it listens; `false` when the connection is lost (it reconnects). */
  onHearing(hearing: boolean): void;
}

/**
 * LISTENs to a channel on a connection of its own (a pooled one would be handed to other
 * work), PostgreSQL delivering each NOTIFY at its transaction's commit. The connection is
 * watched by a heartbeat and made again every second while it is down.
 */
@Injectable()
export class PostgresListener implements OnModuleDestroy {
  private readonly logger = new Logger(PostgresListener.name);
  private readonly channels: { channel: string; listening: Listening }[] = [];
  private client?: Client;
  private connecting?: Promise<void>;
  private stopped = false;
  private retry?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Listens to `channel` (one connection serves every channel). */
  async listen(channel: string, listening: Listening): Promise<void> {
    this.channels.push({ channel, listening });
    const client = this.client;
    if (client) {
      // A failure is a lost connection: the next one listens to every channel.
      await client.query(`LISTEN ${channel}`).then(
        () => listening.onHearing(true),
        () => this.lost(client),
      );
    } else if (!this.retry) {
      await (this.connecting ??= this.connect().finally(() => (this.connecting = undefined)));
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const options = this.dataSource.options as { url?: string };
    const client = new Client({
      connectionString: options.url,
      keepAlive: true,
      application_name: LISTENER_APPLICATION_NAME,
    });
    client.on('notification', ({ channel }) => {
      for (const entry of this.channels) {
        if (entry.channel === channel) entry.listening.onNotification();
      }
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const { channel } of this.channels) await client.query(`LISTEN ${channel}`);
      this.client = client;
      this.heartbeat = setInterval(() => this.check(client), HEARTBEAT_MS).unref();
      for (const { listening } of this.channels) listening.onHearing(true);
    } catch (error) {
      const about = this.channels.map((entry) => entry.listening.about).join(', ');
      this.logger.warn(`Cannot listen for ${about}: ${(error as Error).message}`);
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
    for (const { listening } of this.channels) listening.onHearing(false);
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) void this.connect();
    }, RECONNECT_MS);
  }
}
