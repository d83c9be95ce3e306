import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './webhook-addresses';

/** What came back: a status, or why none did. */
export interface TransportResult {
  status?: number;
  error?: string;
}

/**
 * One POST to an address already checked (WebhookAddresses): a new connection goes to
 * that address, the name in the URL not resolved again (its TLS name and Host header stay
 * the URL's); connections are kept open between deliveries (each went to an address
 * checked when it was made). Redirects are answers like any other, and the whole exchange
 * has `timeoutMs`.
 */
@Injectable()
export class WebhookTransport implements OnApplicationShutdown {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };

  onApplicationShutdown(): void {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }

  post(
    url: URL,
    target: ResolvedAddress,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
  ): Promise<TransportResult> {
    const pinned: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [target]);
      else callback(null, target.address, target.family);
    };
    const client = url.protocol === 'https:' ? https : http;
    const agent = this.agents[url.protocol as 'http:' | 'https:'];
    return new Promise((resolve) => {
      const request = client.request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent,
          lookup: pinned,
          signal: AbortSignal.timeout(timeoutMs),
        },
        (response) => {
          // The status is the answer; the body is drained, not waited for.
          resolve({ status: response.statusCode });
          response.resume();
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ error: describe(error, timeoutMs) }),
      );
      request.end(body);
    });
  }
}

function describe(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') {
    return `no answer within ${timeoutMs} ms`;
  }
  if (error.code === 'ECONNRESET') return 'the connection closed before an answer';
  if (error.code === 'ECONNREFUSED') return 'the connection was refused';
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
