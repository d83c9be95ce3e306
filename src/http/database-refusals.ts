import {
  BadRequestException,
  ConflictException,
  HttpException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { postgresErrorOf, SQLSTATE } from '../database/postgres-errors';

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
