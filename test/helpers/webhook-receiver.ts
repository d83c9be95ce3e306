import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on loopback. What it answers depends on the path's first part:
 * `/ok/…` 200, `/fail-once/…` 500 then 200, `/fail/…` 500, `/hang/…` never, `/hang-once/…`
 * never then 200, `/close/…` the connection closed, `/redirect/…` 302 to `/ok/…`; or as
 * scripted for the path.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Called as each request arrives, before it is answered. */
  onReceived?: (received: Received) => void;
  private readonly failed = new Set<string>();
  private readonly scripts = new Map<string, string[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        const received = { path, headers: request.headers, body: Buffer.concat(chunks).toString() };
        this.received.push(received);
        this.onReceived?.(received);
        this.answer(path, response);
      });
    });
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The bodies received on `path`, parsed. */
  bodies(path: string): Record<string, unknown>[] {
    return this.received
      .filter((r) => r.path === path)
      .map((r) => JSON.parse(r.body) as Record<string, unknown>);
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise((done) => this.server.close(done));
  }

  /**
   * The answers `path` gets next, in turn (the kinds of the paths above: `ok`, `fail`,
   * `hang`…); once they are used up, its path's own.
   */
  script(path: string, answers: string[]): void {
    this.scripts.set(path, [...answers]);
  }

  private answer(path: string, response: ServerResponse): void {
    const [, kind] = path.split('/');
    switch (this.scripts.get(path)?.shift() ?? kind) {
      case 'ok':
        response.end('ok');
        return;
      case 'fail-once':
        if (this.failed.has(path)) response.end('ok');
        else {
          this.failed.add(path);
          response.writeHead(500).end('not yet');
        }
        return;
      case 'fail':
        response.writeHead(500).end('no');
        return;
      case 'hang':
        this.hanging.add(response);
        return;
      case 'hang-once':
        if (this.failed.has(path)) response.end('ok');
        else {
          this.failed.add(path);
          this.hanging.add(response);
        }
        return;
      case 'close':
        response.socket?.destroy();
        return;
      case 'redirect':
        response.writeHead(302, { location: path.replace('/redirect/', '/ok/') }).end();
        return;
      default:
        response.writeHead(404).end();
    }
  }
}

/**
 * Whether every delivery to `webhook` of the changes to `entity` records `keys` has ended:
 * the dispatcher read past their change-log entries, and no job of the webhook waits or
 * runs (a delivery's job lives from its dispatch until no attempt is left to make).
 */
export async function deliveriesEnded(
  dataSource: DataSource,
  webhook: number,
  entity: string,
  keys: number[],
): Promise<boolean> {
  const [{ ended }] = await dataSource.query(
    `SELECT (SELECT max(transaction_id) FROM change_log
              WHERE entity = $2 AND record_key = ANY($3::int8[])) < d.range_from
            AND cardinality(d.pending) = 0
            AND NOT EXISTS (SELECT 1 FROM pgboss.job WHERE name = 'webhook-delivery'
                  AND (data->'payload'->>'webhook')::int8 = $1
                  AND state IN ('created', 'retry', 'active')) AS ended
       FROM event_dispatch d WHERE d.name = 'events'`,
    [webhook, entity, keys],
  );
  return ended === true;
}
