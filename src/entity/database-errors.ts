import { BadRequestException, ConflictException, HttpException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { SYSTEM_COLUMNS } from './entity-type';

interface PostgresError {
  code?: string;
  table?: string;
  detail?: string;
}

/**
 * Constraint violations PostgreSQL reports become the API's statuses: a unique
 * violation is 409 naming the property, a dangling or still-used reference 400 / 409.
 * Anything else is left for the exception filter's 500.
 */
export function translateDatabaseError(error: unknown): unknown {
  if (!(error instanceof QueryFailedError)) return error;
  const { code, table, detail = '' } = error.driverError as PostgresError;
  const columns = /^Key \(([^)]+)\)/.exec(detail)?.[1].split(', ') ?? [];
  const property =
    columns.find((c) => !(SYSTEM_COLUMNS as readonly string[]).includes(c)) ?? columns[0];
  const path = `${table ?? 'entity'}.${property ?? '?'}`;
  const translated: Record<string, () => HttpException> = {
    '23505': () => new ConflictException(`${path}: another ${table} already has this ${property}`),
    '23503': () =>
      detail.includes('is still referenced')
        ? new ConflictException(`Other rows still refer to it: ${detail}`)
        : new BadRequestException(`${path}: refers to a row that does not exist`),
    '22003': () => new BadRequestException(`A value is out of range: ${error.message}`),
  };
  return translated[code ?? '']?.() ?? error;
}
