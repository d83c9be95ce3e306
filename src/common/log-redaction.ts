/** Request and response parts that carry secrets and never reach the log. */
export const REDACTED_LOG_PATHS = [
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-csrf-token"]',
  'req.headers.authorization',
  'req.headers["oidc-auth-token"]',
  'req.headers["oidc-refresh-token"]',
  'req.query.apiKey',
  'res.headers["set-cookie"]',
  'res.headers["x-csrf-token"]',
];

const API_KEY_IN_QUERY = /([?&]apiKey=)[^&#]*/g;

/**
 * pino-http logs `req.url` from the original URL, which still holds an API key given
 * as `?apiKey=`; redacting `req.query` alone would leave it there.
 */
export function redactRequestUrl<T extends { url?: string }>(req: T): T {
  if (req.url) req.url = req.url.replace(API_KEY_IN_QUERY, '$1[Redacted]');
  return req;
}
