import { BadRequestException } from '@nestjs/common';
import { RECORD_OPERATIONS } from '../changes/change-log.service';
import { HistoryFilter } from '../changes/change-log.repository';
import { parseInstant } from '../common/instant';

export const HISTORY_DEFAULT_LIMIT = 50;
export const HISTORY_MAX_LIMIT = 500;

/** The query of GET …/{key}/history, as the client sent it (text). */
export interface HistoryQuery {
  from?: string;
  to?: string;
  operation?: string;
  limit?: string;
  cursor?: string;
}

/** The filter and page size a history query asks for; 400 naming what is wrong. */
export function parseHistoryQuery(query: HistoryQuery): { filter: HistoryFilter; limit: number } {
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && typeof value !== 'string') {
      throw new BadRequestException(`${name}: give it once`);
    }
  }
  const filter: HistoryFilter = {
    from: query.from === undefined ? undefined : instant('from', query.from),
    to: query.to === undefined ? undefined : instant('to', query.to),
  };
  if (query.operation !== undefined) {
    const operations = query.operation.split(',');
    const unknown = operations.find((o) => !(RECORD_OPERATIONS as readonly string[]).includes(o));
    if (unknown !== undefined) {
      throw new BadRequestException(
        `operation: "${unknown}" is none of ${RECORD_OPERATIONS.join(', ')}`,
      );
    }
    filter.operations = operations;
  }
  if (query.cursor !== undefined) filter.before = cursorKey(query.cursor);
  const limit = query.limit === undefined ? HISTORY_DEFAULT_LIMIT : Number(query.limit);
  if (!/^\d+$/.test(query.limit ?? '1') || limit < 1 || limit > HISTORY_MAX_LIMIT) {
    throw new BadRequestException(`limit: a whole number from 1 to ${HISTORY_MAX_LIMIT}`);
  }
  return { filter, limit };
}

/** The value of `asOf`: an ISO 8601 instant, else a 400. */
export function instant(name: string, text: string): Date {
  const date = parseInstant(text);
  if (!date) {
    throw new BadRequestException(
      `${name}: "${text}" is not an ISO 8601 instant (2026-11-26T10:00:00Z)`,
    );
  }
  return date;
}

/** The history's cursor (X-Fetch-Next) names the oldest entry of the page before. */
export function historyCursor(key: number): string {
  return Buffer.from(`history:${key}`).toString('base64url');
}

function cursorKey(cursor: string): number {
  const match = /^history:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new BadRequestException('X-Fetch-Cursor: not a cursor this history gave');
  return Number(match[1]);
}
