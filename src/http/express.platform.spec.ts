import type { Express } from 'express';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Environment } from '../config/environment';
import { expressPlatform } from './express.platform';

describe('the Express platform', () => {
  let server: Server;
  afterEach(() => new Promise((resolve) => server?.close(resolve)));

  it("has Node make each request and response with Express's prototypes", async () => {
    const adapter = expressPlatform.createAdapter({} as Environment);
    adapter.initHttpServer({});
    const app = adapter.getInstance<Express>();
    app.get('/probe', (_request, response) => response.json({ ok: true }));
    server = adapter.getHttpServer() as Server;
    // Before Express sees them: what Node made.
    const made: { request?: object; response?: object } = {};
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      made.request = Object.getPrototypeOf(request) as object;
      made.response = Object.getPrototypeOf(response) as object;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    const answer = await fetch(`http://127.0.0.1:${port}/probe`);

    expect(await answer.json()).toEqual({ ok: true });
    expect(made.request).toBe(app.request);
    expect(made.response).toBe(app.response);
  });
});
