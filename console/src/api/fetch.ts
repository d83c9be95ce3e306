import { call, send } from './http';
import { callInStatementSlot } from './statement-slots';

export interface FetchColumn {
  name: string;
  type: string;
  nullable: boolean;
}

/** A FETCH text the server refuses: where, and why. */
export interface FetchProblem {
  detail: string;
  line?: number;
  column?: number;
}

const TEXT = { 'Content-Type': 'text/plain' };

/** POST /rest/fetch/parse: the tree, or the problem at its line and column. */
export async function parseFetch(
  query: string,
): Promise<{ tree?: unknown; problem?: FetchProblem }> {
  const response = await send('/rest/fetch/parse', { method: 'POST', headers: TEXT, body: query });
  const body = (await response.json()) as FetchProblem & { fetch?: unknown[] };
  return response.ok ? { tree: body.fetch?.[0] } : { problem: body };
}

/** POST /rest/metadata/fetch: the columns the query would answer. */
export async function fetchColumns(query: string): Promise<FetchColumn[]> {
  const response = await call('/rest/metadata/fetch', {
    method: 'POST',
    headers: TEXT,
    body: query,
  });
  return ((await response.json()) as { columns: FetchColumn[] }).columns;
}

export type Row = Record<string, unknown>;

export interface FetchPage {
  rows: Row[];
  /** X-Fetch-Next: the cursor of the page after, when there may be one. */
  next?: string;
  /** X-Total-Count, when asked for. */
  total?: string;
  /** Server-Timing, as the server wrote it. */
  timing?: string;
}

/** POST /rest/fetch: a page of the query, after `cursor`, with the total when `count`. */
export async function runFetch(
  query: string,
  options: { cursor?: string; count?: boolean } = {},
): Promise<FetchPage> {
  const headers: Record<string, string> = { ...TEXT };
  if (options.cursor) headers['X-Fetch-Cursor'] = options.cursor;
  if (options.count) headers['X-Fetch-Count'] = 'true';
  const response = await callInStatementSlot('/rest/fetch', {
    method: 'POST',
    headers,
    body: query,
  });
  return {
    rows: (await response.json()) as Row[],
    next: response.headers.get('X-Fetch-Next') ?? undefined,
    total: response.headers.get('X-Total-Count') ?? undefined,
    timing: response.headers.get('Server-Timing') ?? undefined,
  };
}

/** The rows of a query, without paging. */
export const fetchRows = async (query: string) => (await runFetch(query)).rows;
