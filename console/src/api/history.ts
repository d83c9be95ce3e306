import { call, getJson } from './http';
import type { Envelope } from './entities';

/** One entry of a record's history (GET /rest/entity/{name}/{key}/history). */
export interface HistoryEntry {
  key: number;
  occurredAt: string;
  operation: string;
  entity: string;
  recordKey: number | null;
  changes: Record<string, { old?: unknown; new?: unknown }>;
  /** Values the caller may not read were left out. */
  withheld?: true;
  actor: { userKey: number | null; userName: string | null; via: string };
  children: HistoryEntry[];
}

export interface HistoryPage {
  entries: HistoryEntry[];
  /** X-Fetch-Next: the cursor of the older entries, when there are more. */
  next?: string;
}

const recordPath = (type: string, key: number) => `/rest/entity/${encodeURIComponent(type)}/${key}`;

/** A page of a record's history, newest first, after `cursor`. */
export async function readHistory(
  type: string,
  key: number,
  cursor?: string,
): Promise<HistoryPage> {
  const response = await call(`${recordPath(type, key)}/history`, {
    headers: cursor ? { 'X-Fetch-Cursor': cursor } : {},
  });
  return {
    entries: (await response.json()) as HistoryEntry[],
    next: response.headers.get('X-Fetch-Next') ?? undefined,
  };
}

/** The record as it was at an instant, rebuilt from its history. */
export const readAsOf = (type: string, key: number, instant: string) =>
  getJson<Envelope>(`${recordPath(type, key)}?asOf=${encodeURIComponent(instant)}`);
