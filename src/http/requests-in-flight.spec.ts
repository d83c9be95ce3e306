import { once } from 'node:events';
import { Agent, createServer, get, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { RequestsInFlight } from './requests-in-flight';

describe('RequestsInFlight', () => {
  const held: ServerResponse[] = [];
  const server = createServer((_request, response) => held.push(response));
  const inFlight = new RequestsInFlight(server);
  let port: number;

  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    ({ port } = server.address() as AddressInfo);
  });
  afterAll(() => new Promise((closed) => server.close(closed)));

  /** A request on a kept-alive connection, answered once the server ends its response. */
  const send = (agent: Agent | false = false) =>
    new Promise<IncomingMessage>((done) =>
      get({ port, host: '127.0.0.1', agent }, (response) => done(response.resume())),
    );
  const heldCount = async (count: number) => {
    while (held.length < count) await new Promise((tick) => setImmediate(tick));
  };

  it('counts a request from its start until it is answered', async () => {
    const answered = [send(), send()];
    await heldCount(2);
    expect(inFlight.count).toBe(2);
    for (const [index, response] of held.splice(0).entries()) {
      response.end();
      await once(response, 'close');
      expect(inFlight.count).toBe(1 - index);
    }
    await Promise.all(answered);
  });

  it('closes the connections of answers given once it drains, those under way included', async () => {
    const agent = new Agent({ keepAlive: true });
    const before = send(agent);
    await heldCount(1);
    inFlight.drain();
    const after = send(agent);
    await heldCount(2);
    for (const response of held.splice(0)) response.end();
    for (const response of await Promise.all([before, after])) {
      expect(response.headers.connection).toBe('close');
    }
    agent.destroy();
  });
});
