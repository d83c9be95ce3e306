import { Logger } from '@nestjs/common';
import { AbstractLogger, LogLevel, LogMessage } from 'typeorm';

/** TypeORM's line for a migration it ran (at schema-build, which it logs only when asked). */
const APPLIED = /^Migration (\S+) has been executed successfully/;

/**
 * TypeORM's own lines (a migration run, a migration failing) as the app's log lines, in
 * LOG_LEVEL's format, instead of text on the console. Query logging stays off: its lines
 * would carry parameters (passwords' hashes among them).
 */
export class TypeOrmLogger extends AbstractLogger {
  private readonly logger = new Logger('TypeORM');

  /** Of the schema's lines, a line per migration applied: what a start changed. */
  override logSchemaBuild(message: string): void {
    const applied = APPLIED.exec(message);
    if (applied) this.logger.log(`Applied migration ${applied[1]}`);
  }

  protected writeLog(
    level: LogLevel,
    message: LogMessage | string | number | (LogMessage | string | number)[],
  ): void {
    for (const { type, message: text } of this.prepareLogMessages(message)) {
      const line = String(text);
      if (level === 'error' || (type === 'migration' && /\bfailed\b/.test(line))) {
        this.logger.error(line);
      } else if (level === 'warn') {
        this.logger.warn(line);
      } else {
        this.logger.log(line);
      }
    }
  }
}
