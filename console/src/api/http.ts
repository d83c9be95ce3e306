/**
 * Atrium's public HTTP API as a browser front end uses it: the session cookie (sent by
 * the browser, never readable here) and the X-CSRF-Token header on every write.
 */

/** The session's CSRF token, from the login's answer or GET /auth's; kept in memory only. */
let csrfToken: string | undefined;

/** What the server said when it refused: its status and body (`{detail}`, a 424 record…). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { detail?: string } & Record<string, unknown>,
  ) {
    super(body.detail ?? `HTTP ${status}`);
  }
}

const SAFE = new Set(['GET', 'HEAD']);

/** Headers for a request: the CSRF token on every write (the cookie goes by itself). */
export function requestHeaders(method: string, headers?: HeadersInit): Headers {
  const all = new Headers(headers);
  if (csrfToken && !SAFE.has(method)) all.set('X-CSRF-Token', csrfToken);
  return all;
}

/** A request of the API; the answer's CSRF token, when it has one, is the session's. */
export async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const method = init.method ?? 'GET';
  const response = await fetch(path, {
    ...init,
    headers: requestHeaders(method, init.headers),
    credentials: 'same-origin',
  });
  const token = response.headers.get('X-CSRF-Token');
  if (token) csrfToken = token;
  return response;
}

/** As send; an error status becomes an ApiError with the server's body. */
export async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await send(path, init);
  if (!response.ok) throw await errorOf(response);
  return response;
}

export async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as ApiError['body'];
  return new ApiError(response.status, { detail: response.statusText, ...body });
}

/** JSON of a call. */
export async function getJson<T>(path: string, init?: RequestInit): Promise<T> {
  return (await call(path, init)).json() as Promise<T>;
}

/** A JSON body, sent as such. */
export function jsonBody(method: string, body: unknown, headers?: HeadersInit): RequestInit {
  const all = new Headers(headers);
  all.set('Content-Type', 'application/json');
  return { method, headers: all, body: JSON.stringify(body) };
}

/** Forgets the session's token (signed out). */
export function forgetCsrfToken(): void {
  csrfToken = undefined;
}
