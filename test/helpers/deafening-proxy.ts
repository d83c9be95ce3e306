import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of the test PostgreSQL that can make the connections of one
 * application_name deaf: their bytes stop in both directions while both sockets stay
 * open — a half-open link after a network fault, which no error or end event reports.
 */
interface Link {
  name: string;
  client: Socket;
  upstream: Socket;
}

export class DeafeningProxy {
  private constructor(
    private readonly server: Server,
    private readonly links: Link[],
    /** The database URL through the proxy. */
    readonly url: string,
  ) {}

  static async start(databaseUrl: string): Promise<DeafeningProxy> {
    const url = new URL(databaseUrl);
    const socketDir = url.searchParams.get('host');
    const target = socketDir
      ? { path: `${socketDir}/.s.PGSQL.${url.port || 5432}` }
      : { host: url.hostname, port: Number(url.port || 5432) };
    const links: Link[] = [];
    const server = createServer((client) => {
      const upstream = connect(target);
      const link = { name: '', client, upstream };
      links.push(link);
      client.once('data', (startup: Buffer) => {
        // The startup message: name and value pairs, NUL-terminated, after 8 bytes.
        const parts = startup.subarray(8).toString('utf8').split('\0');
        const at = parts.indexOf('application_name');
        if (at >= 0) link.name = parts[at + 1];
      });
      client.pipe(upstream);
      upstream.pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    url.searchParams.delete('host');
    return new DeafeningProxy(server, links, url.toString());
  }

  /** The open connections named `name` stop passing bytes (the sockets stay open). */
  deafen(name: string): number {
    const deaf = this.links.filter((link) => link.name === name && !link.client.destroyed);
    for (const { client, upstream } of deaf) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
    return deaf.length;
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.links) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise((done) => this.server.close(done));
  }
}
