import { HttpException } from '@nestjs/common';
import { postgresErrorOf, SQLSTATE } from '../database/postgres-errors';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** The invocation itself is wrong (command, option or configuration): nothing was attempted. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** Unknown commands are answered with the whole usage text, not one line. */
    readonly showUsage = false,
  ) {
    super(message);
  }
}

/** The command ran and could not do what was asked (the name is taken, the user is unknown). */
export class CommandFailedError extends Error {}

export interface ReportedError {
  exitCode: number;
  message: string;
  showUsage: boolean;
}

/**
 * Expected failures become one clear line; anything else keeps its stack, because then
 * the stack is what someone needs to fix it.
 */
export function describeError(error: unknown): ReportedError {
  if (error instanceof UsageError) {
    return { exitCode: EXIT_USAGE, message: error.message, showUsage: error.showUsage };
  }
  if (error instanceof CommandFailedError) return failed(error.message);
  // The services speak HTTP; their 4xx errors are the domain's refusals.
  if (error instanceof HttpException && error.getStatus() < 500) return failed(error.message);
  // Lost a race with a concurrent create: the check passed, the unique index did not.
  const failedStatement = postgresErrorOf(error);
  if (failedStatement?.code === SQLSTATE.uniqueViolation) {
    return failed(failedStatement.detail ?? failedStatement.message);
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { exitCode: EXIT_FAILED, message, showUsage: false };
}

function failed(message: string): ReportedError {
  return { exitCode: EXIT_FAILED, message, showUsage: false };
}
