import { createServer, IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookTransport } from './webhook-transport';

describe('WebhookTransport', () => {
  it('connects to the address checked, never looking the name up again, and keeps the name as Host', async () => {
    const arrived: IncomingHttpHeaders[] = [];
    const receiver = createServer((request, response) => {
      arrived.push(request.headers);
      request.resume();
      request.on('end', () => response.end('ok'));
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const { port } = receiver.address() as AddressInfo;
    const transport = new WebhookTransport();
    try {
      // A name no resolver knows: only the address it was checked at can be reached.
      const url = new URL(`http://pinned.invalid:${port}/hook`);
      const result = await transport.post(
        url,
        { address: '127.0.0.1', family: 4 },
        { 'content-type': 'application/json' },
        '{}',
        2_000,
      );
      expect(result).toEqual({ status: 200 });
      expect(arrived.map((headers) => headers.host)).toEqual([`pinned.invalid:${port}`]);
    } finally {
      transport.onApplicationShutdown();
      receiver.closeAllConnections();
      await new Promise((done) => receiver.close(done));
    }
  });
});
