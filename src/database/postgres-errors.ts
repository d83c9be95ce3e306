import {
  BadRequestException,
  ConflictException,
  HttpException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { QueryFailedError } from 'typeorm';

/** The SQLSTATE codes this server answers for itself (PostgreSQL, Appendix A). */
export const SQLSTATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  numericValueOutOfRange: '22003',
  queryCanceled: '57014',
  cannotConnectNow: '57P03',
  tooManyConnections: '53300',
} as const;

/** What PostgreSQL says of a failed statement: its code, the table and the detail. */
export interface PostgresError {
  code?: string;
  table?: string;
  detail?: string;
  message: string;
}

/** The driver's error a failed statement carries, or undefined for any other error. */
export function postgresErrorOf(error: unknown): PostgresError | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const { code, table, detail } = error.driverError as Partial<PostgresError>;
  return { code, table, detail, message: error.message };
}

/**
 * The constraint violations a write can meet, as the API's statuses: a unique violation
 * is a 409 naming the property (the first column of the key that is not a system column,
 * `systemColumns`), a dangling reference a 400, a still-used one a 409, a number out of
 * its column's range a 400. Anything else is left as it is, for the exception filter's 500.
 */
export function translateWriteError(error: unknown, systemColumns: readonly string[]): unknown {
  const failed = postgresErrorOf(error);
  if (!failed) return error;
  const { code, table, detail = '', message } = failed;
  const columns = /^Key \(([^)]+)\)/.exec(detail)?.[1].split(', ') ?? [];
  const property = columns.find((c) => !systemColumns.includes(c)) ?? columns[0];
  const path = `${table ?? 'entity'}.${property ?? '?'}`;
  const translated: Record<string, () => HttpException> = {
    [SQLSTATE.uniqueViolation]: () =>
      new ConflictException(`${path}: another ${table} already has this ${property}`),
    [SQLSTATE.foreignKeyViolation]: () =>
      detail.includes('is still referenced')
        ? new ConflictException(`Other rows still refer to it: ${detail}`)
        : new BadRequestException(`${path}: refers to a row that does not exist`),
    [SQLSTATE.numericValueOutOfRange]: () =>
      new BadRequestException(`A value is out of range: ${message}`),
  };
  return translated[code ?? '']?.() ?? error;
}

/**
 * What a compiled query can still meet in PostgreSQL: the statement timeout (503: the
 * server's limit, not the client's fault) and a value that does not fit its type (SQLSTATE
 * class 22, a 400).
 */
export function translateQueryError(error: unknown, statementTimeoutMs: number): unknown {
  const failed = postgresErrorOf(error);
  if (!failed) return error;
  if (failed.code === SQLSTATE.queryCanceled) {
    return new ServiceUnavailableException(
      `The query ran longer than the server allows (${statementTimeoutMs} ms): narrow it with a filter or a LIMIT`,
    );
  }
  if (failed.code?.startsWith('22')) {
    return new BadRequestException(`A value does not fit: ${failed.message}`);
  }
  return error;
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
    // SQLSTATE class 08 (connection exception), starting up, too many connections.
    if (CONNECTION_ERRORS.has(code) || code.startsWith('08')) return true;
    if (code === SQLSTATE.cannotConnectNow || code === SQLSTATE.tooManyConnections) return true;
  }
  return typeof message === 'string' && /timeout.*connect|connection terminated/i.test(message);
}
