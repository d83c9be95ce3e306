import { QueryFailedError } from 'typeorm';

/**
 * The SQLSTATE codes this server tells apart (PostgreSQL, Appendix A). What PostgreSQL's
 * errors mean is read here, in one place; http/database-refusals.ts makes the API's
 * answers of them.
 */
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
