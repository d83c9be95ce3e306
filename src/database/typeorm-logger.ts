import { Logger } from '@nestjs/common';
import { AbstractLogger, LogLevel, LogMessage } from 'typeorm';

/**
 * TypeORM's own lines (a migration run, a migration failing) as the app's log lines, in
 * LOG_LEVEL's format, instead of text on the console. Query logging stays off: its lines
 * would carry parameters (passwords' hashes among them).
 */
export class TypeOrmLogger extends AbstractLogger {
  private readonly logger = new Logger('TypeORM');

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

const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
]);

/**
 * Whether the database could not be reached (yet): a failed start worth another try, a
 * request's 503. Not a migration that fails or a schema that is wrong, which would fail
 * the same way again. A TypeORM error is judged by the driver's error it wraps.
 */
export function isConnectionFailure(error: unknown): boolean {
  const { code, message, driverError } = (error ?? {}) as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
  };
  if (driverError !== undefined && isConnectionFailure(driverError)) return true;
  if (typeof code === 'string') {
    // SQLSTATE class 08 (connection exception), 57P03 (starting up), 53300 (too many).
    if (CONNECTION_ERRORS.has(code) || code.startsWith('08')) return true;
    if (code === '57P03' || code === '53300') return true;
  }
  return typeof message === 'string' && /timeout.*connect|connection terminated/i.test(message);
}
