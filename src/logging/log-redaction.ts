import { stdSerializers } from 'pino';

/** Request and response parts that carry secrets and never reach the log. */
export const REDACTED_LOG_PATHS = [
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-csrf-token"]',
  'req.headers.authorization',
  'req.headers["oidc-auth-token"]',
  'req.headers["oidc-refresh-token"]',
  'req.query',
  'res.headers["set-cookie"]',
  'res.headers["x-csrf-token"]',
  'res.headers.location',
];

/**
 * Query parameters that carry a credential: the API key (spec 5.2), and the code and
 * state of an OpenID provider's redirect. Compared as the server reads them: decoded
 * (`api%4Bey` is `apiKey` to the query parser) and in any case.
 */
const SECRET_PARAMETERS = new Set(['apikey', 'code', 'state', 'access_token', 'id_token']);

const REDACTED = '[Redacted]';

/**
 * pino-http logs `req.url` from the original URL, which still holds an API key given in
 * the query; redacting `req.query` alone would leave it there.
 */
export function redactRequestUrl<T extends { url?: string }>(req: T): T {
  const start = req.url?.indexOf('?') ?? -1;
  if (start < 0) return req;
  const pairs = req.url!.slice(start + 1).split('&');
  const redacted = pairs.map((pair) => {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    return SECRET_PARAMETERS.has(decoded(name).toLowerCase()) ? `${name}=${REDACTED}` : pair;
  });
  req.url = `${req.url!.slice(0, start + 1)}${redacted.join('&')}`;
  return req;
}

/** A request as its log line's message: `GET /auth?apiKey=[Redacted] 200 3 ms`. */
export function requestLine(
  request: { method?: string; url?: string; originalUrl?: string },
  response: { statusCode: number },
  ms: number,
): string {
  const { url } = redactRequestUrl({ url: request.originalUrl ?? request.url });
  return `${request.method} ${url} ${response.statusCode} ${ms} ms`;
}

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name; // not valid percent-encoding: the query parser keeps it as written
  }
}

/**
 * What a database error carries besides its message: the statement's parameters (a
 * password's hash, an API key's), PostgreSQL's `detail` ("Key (key_hash)=(…) already
 * exists") and the failing statement's context. The log keeps the message, the SQL
 * text (parameters are placeholders) and the codes that say what failed.
 */
const UNLOGGED_ERROR_FIELDS = ['parameters', 'detail', 'where', 'internalQuery', 'hint'];

export function serializeError(error: Error): object {
  const serialized: Record<string, unknown> = stdSerializers.err(error);
  for (const field of UNLOGGED_ERROR_FIELDS) delete serialized[field];
  const driverError = serialized.driverError as Record<string, unknown> | undefined;
  if (driverError && typeof driverError === 'object') {
    const { code, severity, table, column, constraint, message } = driverError;
    serialized.driverError = { message, code, severity, table, column, constraint };
  }
  return serialized;
}
