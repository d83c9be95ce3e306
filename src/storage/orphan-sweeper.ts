import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  BeforeApplicationShutdown,
} from '@nestjs/common';
import { systemScope } from '../access/access.tenant';
import { FsStorageBackend, SWEEP_GRACE_MS } from './backends/fs.backend';
import { FileRepository } from './file.repository';

/** Bytes are shared by every organization's versions (one copy per sha256). */
const SWEEP = systemScope('file-sweep');

/**
 * Sweeps the file system's unrecorded bytes (FsStorageBackend.sweep) when the server
 * starts, and again each grace period after, so that what a crash left just before a
 * restart goes too. In the background: a large store must not hold up the start.
 */
@Injectable()
export class OrphanSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OrphanSweeper.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(FsStorageBackend) private readonly fs: FsStorageBackend,
    private readonly files: FileRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.sweep();
    this.timer = setInterval(() => {
      this.running = this.sweep();
    }, SWEEP_GRACE_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.settled();
  }

  /** Settles when the sweep under way, if any, ends (its statements done). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async sweep(): Promise<void> {
    try {
      const removed = await this.fs.sweep((sha256s) =>
        this.files.recordedBlobs(SWEEP, 'fs', sha256s),
      );
      if (removed > 0) this.logger.log(`Removed ${removed} stored files no version names`);
    } catch (error) {
      this.logger.error(`Sweeping stored files failed: ${(error as Error).message}`);
    }
  }
}
