/**
 * Atrium's public HTTP API as a browser front end uses it: the session cookie (sent by
 * the browser, never readable here) and the X-CSRF-Token header on every write.
 */

const CSRF_KEY = 'atrium.csrf';

export interface ServerInfo {
  name: string;
  version: string;
  userName?: string;
  userFullName?: string;
}

export interface PropertyInfo {
  name: string;
  label: string;
  type: string;
  system: boolean;
  enum?: string[];
  writeOnly?: true;
}

export interface EntityTypeInfo {
  name: string;
  label: string;
  /** Set on child types: they are edited inside their parent. */
  parent?: string;
  properties: PropertyInfo[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(detail);
  }
}

/** A request of the API: the CSRF header on every write, the session cookie by the browser. */
function send(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const csrf = sessionStorage.getItem(CSRF_KEY);
  if (csrf && init.method && init.method !== 'GET') headers.set('X-CSRF-Token', csrf);
  return fetch(path, { ...init, headers, credentials: 'same-origin' });
}

/** As send; an error status becomes an ApiError with the server's detail. */
async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await send(path, init);
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { detail?: string };
    throw new ApiError(response.status, body.detail ?? response.statusText);
  }
  return response;
}

export async function serverInfo(): Promise<ServerInfo> {
  return (await call('/auth')).json() as Promise<ServerInfo>;
}

export async function signIn(user: string, password: string): Promise<ServerInfo> {
  const response = await call('/auth', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ user, password }),
  });
  const csrf = response.headers.get('X-CSRF-Token');
  if (csrf) sessionStorage.setItem(CSRF_KEY, csrf);
  return response.json() as Promise<ServerInfo>;
}

export async function signOut(): Promise<void> {
  await call('/auth?logout=1', { method: 'HEAD' });
  sessionStorage.removeItem(CSRF_KEY);
}

export async function entityTypes(): Promise<EntityTypeInfo[]> {
  return (await call('/rest/metadata/entity')).json() as Promise<EntityTypeInfo[]>;
}

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

/** POST /rest/fetch/parse: the tree, or the problem at its line and column. */
export async function parseFetch(
  query: string,
): Promise<{ tree?: unknown; problem?: FetchProblem }> {
  const response = await send('/rest/fetch/parse', {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body: query,
  });
  const body = (await response.json()) as FetchProblem & { fetch?: unknown[] };
  return response.ok ? { tree: body.fetch?.[0] } : { problem: body };
}

/** POST /rest/metadata/fetch: the columns the query would answer. */
export async function fetchColumns(query: string): Promise<FetchColumn[]> {
  const response = await call('/rest/metadata/fetch', {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body: query,
  });
  return ((await response.json()) as { columns: FetchColumn[] }).columns;
}

export interface FetchPage {
  rows: Record<string, unknown>[];
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
  const headers: Record<string, string> = { 'Content-Type': 'text/plain' };
  if (options.cursor) headers['X-Fetch-Cursor'] = options.cursor;
  if (options.count) headers['X-Fetch-Count'] = 'true';
  const response = await call('/rest/fetch', { method: 'POST', headers, body: query });
  return {
    rows: (await response.json()) as Record<string, unknown>[],
    next: response.headers.get('X-Fetch-Next') ?? undefined,
    total: response.headers.get('X-Total-Count') ?? undefined,
    timing: response.headers.get('Server-Timing') ?? undefined,
  };
}
