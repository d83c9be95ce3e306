import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * The requests a server has begun and not yet ended (answered, or their connection
 * closed), whichever platform routes them: what a shutdown waits for, and says it did.
 */
export class RequestsInFlight {
  private readonly open = new Set<ServerResponse>();
  private draining = false;

  constructor(server: Server) {
    server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
      this.open.add(response);
      if (this.draining) closeAfter(response);
      response.once('close', () => this.open.delete(response));
    });
  }

  get count(): number {
    return this.open.size;
  }

  /**
   * From now on each answer closes its connection: a kept-alive one would hold the stop
   * until its idle timeout (5 s) once the server closes.
   */
  drain(): void {
    this.draining = true;
    for (const response of this.open) closeAfter(response);
  }
}

function closeAfter(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('Connection', 'close');
}
