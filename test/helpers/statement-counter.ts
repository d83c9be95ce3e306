import { AbstractLogger, LogLevel, LogMessage } from 'typeorm';
import { EventDispatcher } from '../../src/events/event-dispatcher.service';
import { JobQueue } from '../../src/queue/job-queue.service';
import { OrphanSweeper } from '../../src/storage/orphan-sweeper';
import type { TestApp } from './test-app';

/** Records every statement TypeORM sends while recording. */
export class StatementCounter extends AbstractLogger {
  private recording = false;
  readonly statements: string[] = [];
  /** The parameters of each recorded statement, in the same order. */
  readonly parameters: unknown[][] = [];

  /**
   * The data source's logger is read on every query; swapping it is how TypeORM lets one
   * watch the statements without changing the app. The storage sweep the app starts in
   * the background is awaited first, and the events' dispatcher (which reads the change
   * log on a timer) and the job workers stopped (on a shared database they take the jobs
   * other suites left, webhook deliveries among them): their statements are no request's.
   */
  static async attach({ app, dataSource }: TestApp): Promise<StatementCounter> {
    await app.get(OrphanSweeper).settled();
    await app.get(EventDispatcher).onApplicationShutdown();
    await app.get(JobQueue).stopWorking();
    const counter = new StatementCounter();
    Object.defineProperty(dataSource, 'logger', { value: counter });
    return counter;
  }

  async record(work: () => Promise<unknown>): Promise<string[]> {
    this.statements.length = 0;
    this.parameters.length = 0;
    this.recording = true;
    try {
      await work();
    } finally {
      this.recording = false;
    }
    return [...this.statements];
  }

  override logQuery(query: string, parameters?: unknown[]): void {
    if (!this.recording) return;
    this.statements.push(query.replace(/\s+/g, ' ').trim());
    this.parameters.push(parameters ?? []);
  }

  protected writeLog(_level: LogLevel, _message: LogMessage | string | number): void {}
}
