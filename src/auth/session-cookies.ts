import { parseCookie, SerializeOptions, stringifySetCookie } from 'cookie';
import { HttpResponse, nodeResponseOf } from '../http/http.types';

/**
 * Cookies a strategy has for the client besides the identity: a rotated token, or the
 * cookies of a session started on this request (the refresh filter's).
 */
export interface CookiesToSend {
  rotatedToken?: string;
  issued?: {
    token: string;
    csrfToken: string;
    locale: string;
    refresh?: { provider: string; sealedToken: string };
  };
}

/** Cookie names of spec 5.3. */
export const AUTH_TOKEN_COOKIE = 'svc.rest.auth.token';
export const CSRF_COOKIE = 'svc.rest.csrf.token';
export const LOCALE_COOKIE = 'svc.rest.locale';
export const CSRF_HEADER = 'X-CSRF-Token';
/** Spec 5.4's refresh filter: which provider, and its (sealed) refresh token. */
export const AUTH_STRATEGY_COOKIE = 'auth.strategy';
export const refreshTokenCookie = (provider: string) => `auth._refresh_token.${provider}`;

const BASE: SerializeOptions = { path: '/', secure: true };
const PRIVATE: SerializeOptions = { ...BASE, httpOnly: true, sameSite: 'lax' };
const ATTRIBUTES: Record<string, SerializeOptions> = {
  [AUTH_TOKEN_COOKIE]: PRIVATE,
  [CSRF_COOKIE]: { ...BASE, httpOnly: true },
  [LOCALE_COOKIE]: BASE,
};
const attributesOf = (name: string) => ATTRIBUTES[name] ?? PRIVATE;

/** A request's cookie: any request with Node's headers (Passport hands strategies the raw one). */
export function readCookie(
  request: { headers: { cookie?: string } },
  name: string,
): string | undefined {
  const header = request.headers.cookie;
  return header ? parseCookie(header)[name] : undefined;
}

export function setSessionCookies(
  response: HttpResponse,
  cookies: { token: string; csrfToken: string; locale: string },
): void {
  appendCookie(response, AUTH_TOKEN_COOKIE, cookies.token);
  appendCookie(response, CSRF_COOKIE, cookies.csrfToken);
  appendCookie(response, LOCALE_COOKIE, cookies.locale);
  sendCsrfToken(response, cookies.csrfToken);
}

/**
 * The session's CSRF token, for the page to send back on writes (its cookie is HttpOnly);
 * never kept by a cache.
 */
export function sendCsrfToken(response: HttpResponse, csrfToken: string): void {
  response.header(CSRF_HEADER, csrfToken);
  response.header('Cache-Control', 'no-store');
}

/** Replaces the auth token after a rotation, leaving the other cookies as they are. */
export function setAuthTokenCookie(response: HttpResponse, token: string): void {
  appendCookie(response, AUTH_TOKEN_COOKIE, token);
}

/** After an OpenID login: the provider's refresh token, sealed, for the refresh filter. */
export function setRefreshCookies(
  response: HttpResponse,
  provider: string,
  sealedToken: string,
): void {
  appendCookie(response, AUTH_STRATEGY_COOKIE, provider);
  appendCookie(response, refreshTokenCookie(provider), sealedToken);
}

/**
 * Spec 4.1: Max-Age=0 and an expiry in the past, Path=/, Secure; the refresh filter's
 * cookies too when the request carries them.
 */
export function clearSessionCookies(
  response: HttpResponse,
  request: { headers: { cookie?: string } },
): void {
  const names = [AUTH_TOKEN_COOKIE, CSRF_COOKIE, LOCALE_COOKIE];
  const provider = readCookie(request, AUTH_STRATEGY_COOKIE);
  if (provider) names.push(AUTH_STRATEGY_COOKIE, refreshTokenCookie(provider));
  for (const name of names) appendCookie(response, name, '', { maxAge: 0, expires: new Date(0) });
}

function appendCookie(
  response: HttpResponse,
  name: string,
  value: string,
  extra: SerializeOptions = {},
): void {
  // Appended on Node's response: Express's `header` would replace the cookies set before.
  nodeResponseOf(response).appendHeader(
    'Set-Cookie',
    stringifySetCookie(name, value, { ...attributesOf(name), ...extra }),
  );
}
