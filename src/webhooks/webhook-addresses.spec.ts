import type { ConfigService } from '@nestjs/config';
import type { Environment } from '../config/environment';
import {
  HostResolver,
  ResolvedAddress,
  WebhookAddresses,
  WebhookTargetError,
} from './webhook-addresses';

/** A resolver that answers each name from its list in turn, and counts what it was asked. */
class ScriptedResolver extends HostResolver {
  readonly asked: string[] = [];
  constructor(private readonly answers: Record<string, string[][]>) {
    super();
  }

  override resolve(host: string): Promise<ResolvedAddress[]> {
    this.asked.push(host);
    const next = this.answers[host]?.shift();
    if (!next) return Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
    return Promise.resolve(
      next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const),
    );
  }
}

function addressesWith(resolver: HostResolver, allowed = ''): WebhookAddresses {
  const config = { get: () => allowed } as unknown as ConfigService<Environment, true>;
  return new WebhookAddresses(resolver, config);
}

describe('WebhookAddresses', () => {
  it('gives the address checked, and refuses the same name when it resolves to loopback next', async () => {
    const resolver = new ScriptedResolver({
      'rebind.example': [['93.184.216.34'], ['127.0.0.1']],
    });
    const addresses = addressesWith(resolver);
    const url = addresses.parse('http://rebind.example/hook');
    // When saved: a public address, the one a connection would go to.
    await expect(addresses.target(url)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    // When sent: looked up again, and refused before any connection.
    await expect(addresses.target(url)).rejects.toThrow(
      'rebind.example resolves to 127.0.0.1, a loopback address',
    );
    expect(resolver.asked).toEqual(['rebind.example', 'rebind.example']);
  });

  it('refuses a name any of whose addresses is not public', async () => {
    const addresses = addressesWith(
      new ScriptedResolver({ 'mixed.example': [['93.184.216.34', '169.254.169.254']] }),
    );
    await expect(addresses.target(new URL('http://mixed.example/'))).rejects.toThrow(
      /169\.254\.169\.254, a linkLocal address/,
    );
  });

  it('refuses addresses written in the URL without looking anything up', async () => {
    const resolver = new ScriptedResolver({});
    const addresses = addressesWith(resolver);
    for (const [url, range] of [
      ['http://10.0.0.7/', 'private'],
      ['http://[::ffff:127.0.0.1]/', 'loopback'],
      ['http://[fd00:ec2::254]/', 'uniqueLocal'],
      ['http://0.0.0.0/', 'unspecified'],
    ]) {
      await expect(addresses.target(new URL(url))).rejects.toThrow(`a ${range} address`);
    }
    expect(resolver.asked).toEqual([]);
  });

  it('lets an operator allow a host by name, which must still resolve', async () => {
    const addresses = addressesWith(
      new ScriptedResolver({ 'hooks.internal': [['10.0.0.7']] }),
      'hooks.internal, gone.internal',
    );
    await expect(addresses.target(new URL('http://hooks.internal/'))).resolves.toEqual({
      address: '10.0.0.7',
      family: 4,
    });
    await expect(addresses.target(new URL('http://gone.internal/'))).rejects.toThrow(
      WebhookTargetError,
    );
  });

  it('parses http and https URLs only, without credentials', () => {
    const addresses = addressesWith(new ScriptedResolver({}));
    expect(() => addresses.parse('ftp://example.com/')).toThrow(/only http and https/);
    expect(() => addresses.parse('http://user:pw@example.com/')).toThrow(/user name or password/);
    expect(() => addresses.parse('example.com')).toThrow(/not an absolute URL/);
  });
});
