import { AbstractLogger, DataSource, LogLevel, LogMessage } from 'typeorm';

/** Records every statement TypeORM sends while recording. */
export class StatementCounter extends AbstractLogger {
  private recording = false;
  readonly statements: string[] = [];

  /**
   * The data source's logger is read on every query; swapping it is how TypeORM lets one
   * watch the statements without changing the app.
   */
  static attach(dataSource: DataSource): StatementCounter {
    const counter = new StatementCounter();
    Object.defineProperty(dataSource, 'logger', { value: counter });
    return counter;
  }

  async record(work: () => Promise<unknown>): Promise<string[]> {
    this.statements.length = 0;
    this.recording = true;
    try {
      await work();
    } finally {
      this.recording = false;
    }
    return [...this.statements];
  }

  override logQuery(query: string): void {
    if (this.recording) this.statements.push(query.replace(/\s+/g, ' ').trim());
  }

  protected writeLog(_level: LogLevel, _message: LogMessage | string | number): void {}
}
