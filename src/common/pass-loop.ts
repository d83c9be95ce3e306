import { setTimeout } from 'node:timers/promises';

/** What a PassLoop needs beside its work: its pacing and where it says that work failed. */
export interface PassLoopOptions {
  /** The least time between the end of a run and the next, while wakes keep coming. */
  gapMs: number;
  /** The wait after a first failure, doubling with each failure in a row… */
  firstBackoffMs: number;
  /** …up to this. */
  maxBackoffMs: number;
  /** Told of each failure once, with the wait before the next run. */
  onFailure(error: unknown, waitMs: number): void;
  /** The clock (Date.now); a spec's own. */
  now?: () => number;
}

/**
 * Runs `work` when woken: at once, or once more after the run under way (wakes meanwhile
 * are one), at most one run per `gapMs` while wakes keep coming. A run that fails is not
 * tried again before its backoff has passed, whatever wakes it (a poll, a commit): a
 * persistent error costs one run and one report per step, not one per wake.
 */
export class PassLoop {
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private failures = 0;
  private notBefore = 0;
  private readonly now: () => number;

  constructor(
    private readonly work: () => Promise<void>,
    private readonly options: PassLoopOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  wake(): void {
    if (this.stopped || this.now() < this.notBefore) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runAll().finally(() => (this.running = undefined));
  }

  /** No more runs; resolves once the one under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async runAll(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.work();
        this.failures = 0;
      } catch (error) {
        const waitMs = Math.min(
          this.options.maxBackoffMs,
          this.options.firstBackoffMs * 2 ** this.failures++,
        );
        this.notBefore = this.now() + waitMs;
        this.options.onFailure(error, waitMs);
        return;
      }
      // What woke it meanwhile is taken together a moment later.
      if (this.again && !this.stopped) await setTimeout(this.options.gapMs);
    } while (this.again && !this.stopped);
  }
}
