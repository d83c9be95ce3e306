import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/**
 * What the app reads of a request, on either platform: Express's request and Fastify's
 * both have these (the platform's setup gives Express's its `id`). `ip`, `protocol` and
 * `host` honour TRUST_PROXY.
 */
export interface HttpRequest {
  readonly id: string;
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** Unknown once the client has gone (Express). */
  readonly ip?: string;
  readonly protocol: string;
  /** The Host header's host and port. */
  readonly host: string;
}

/** What the app sets on a response, on either platform: both have this method. */
export interface HttpResponse {
  header(name: string, value: string): unknown;
}

/**
 * Node's own request and response under a platform's: Express's are Node's, Fastify's
 * wrap them as `raw`. Bodies that stream (uploads) and headers that repeat (Set-Cookie)
 * are handled on these, the same way on both platforms.
 */
export function nodeRequestOf(request: HttpRequest): IncomingMessage {
  return ((request as { raw?: IncomingMessage }).raw ?? request) as IncomingMessage;
}

export function nodeResponseOf(response: HttpResponse): ServerResponse {
  return ((response as { raw?: ServerResponse }).raw ?? response) as ServerResponse;
}
