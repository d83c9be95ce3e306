import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { systemScope } from '../access/access.tenant';
import type { Environment } from '../config/environment';
import { Transactions } from '../database/transactions.service';
import { ChangeLogRepository } from './change-log.repository';

/** A month's partition holds every organization's entries. */
const KEEPER = systemScope('change-log');

/** How often the partitions are looked after: well within a month, cheap when idle. */
const MAINTENANCE_MS = 6 * 60 * 60 * 1000;

/**
 * The change log's monthly partitions: this month's and the next are made at boot and
 * every few hours after (a write never waits for one; the default partition catches what
 * comes in past them), and with AUDIT_RETENTION_MONTHS, the partitions of months older
 * than that are dropped whole, which takes no longer for a million entries than for one.
 */
@Injectable()
export class ChangeLogPartitions implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ChangeLogPartitions.name);
  private readonly retentionMonths?: number;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly repository: ChangeLogRepository,
    private readonly transactions: Transactions,
    config: ConfigService<Environment, true>,
  ) {
    this.retentionMonths = config.get('AUDIT_RETENTION_MONTHS', { infer: true });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.maintain(new Date());
    this.timer = setInterval(() => {
      this.running = this.maintain(new Date()).catch((error: Error) =>
        this.logger.error(`Looking after the change log's partitions failed: ${error.message}`),
      );
    }, MAINTENANCE_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Makes the partitions of `now`'s month and the next; drops those past retention. */
  async maintain(now: Date): Promise<void> {
    const month = (offset: number) =>
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
    for (const offset of [0, 1]) await this.createPartition(month(offset));
    if (this.retentionMonths === undefined) return;
    // Kept: this month and the retentionMonths before it.
    const oldestKept = month(-this.retentionMonths).toISOString().slice(0, 7);
    for (const name of await this.repository.partitionMonths(KEEPER)) {
      if (name >= oldestKept) continue;
      const [year, monthNumber] = name.split('-').map(Number);
      const month = new Date(Date.UTC(year, monthNumber - 1, 1));
      try {
        await this.transactions.run((tx) => this.repository.dropPartition(KEEPER, month, tx));
        this.logger.log(`Dropped the change log of ${name} (AUDIT_RETENTION_MONTHS)`);
      } catch (error) {
        // Busy (a long query holds the log): the next run drops it.
        this.logger.warn(`The change log of ${name} stays for now: ${(error as Error).message}`);
      }
    }
  }

  private async createPartition(month: Date): Promise<void> {
    try {
      await this.transactions.run((tx) => this.repository.createPartition(KEEPER, month, tx));
    } catch (error) {
      // Entries of that month are in the default partition already: they stay there.
      this.logger.warn(
        `No partition of its own for the change log of ${month.toISOString().slice(0, 7)}: ${(error as Error).message}`,
      );
    }
  }
}
