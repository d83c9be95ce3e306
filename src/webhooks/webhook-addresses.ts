import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Environment } from '../config/environment';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Why a webhook may not be sent to a URL: its message names what is wrong. */
export class WebhookTargetError extends Error {}

/** DNS as webhooks use it: a provider of its own, so a test can answer for a name. */
@Injectable()
export class HostResolver {
  async resolve(host: string): Promise<ResolvedAddress[]> {
    const found = await lookup(host, { all: true, verbatim: true });
    return found.map(({ address, family }) => ({ address, family: family as 4 | 6 }));
  }
}

/**
 * Where a webhook may be sent (server-side request forgery refused): http or https, to a
 * host whose every address is public unicast, so neither the server's own network nor a
 * cloud metadata service (169.254.169.254, fd00:ec2::254) can be reached through it. The
 * check is made when the URL is saved and again at each delivery, whose connection goes to
 * the address checked (a name that resolves elsewhere the second time cannot slip through).
 */
@Injectable()
export class WebhookAddresses {
  private readonly allowed: Set<string>;

  constructor(
    private readonly resolver: HostResolver,
    config: ConfigService<Environment, true>,
  ) {
    this.allowed = new Set(
      config
        .get('WEBHOOK_ALLOWED_HOSTS', { infer: true })
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    );
  }

  /** The URL a webhook may have; a WebhookTargetError saying why not. */
  parse(text: string): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new WebhookTargetError(`"${text}" is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new WebhookTargetError(`only http and https URLs are sent to, not ${url.protocol}`);
    }
    if (url.username || url.password) {
      throw new WebhookTargetError('the URL may not carry a user name or password');
    }
    return url;
  }

  /** The address to connect to for `url`, resolved now; a WebhookTargetError if refused. */
  async target(url: URL): Promise<ResolvedAddress> {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    const family = isIP(host);
    const addresses: ResolvedAddress[] = family
      ? [{ address: host, family: family as 4 | 6 }]
      : await this.resolver.resolve(host).catch((error: NodeJS.ErrnoException) => {
          throw new WebhookTargetError(`${host} does not resolve (${error.code ?? error.message})`);
        });
    if (addresses.length === 0) throw new WebhookTargetError(`${host} has no address`);
    if (!this.allowed.has(host)) {
      for (const { address } of addresses) {
        const range = rangeOf(address);
        if (range !== 'unicast') {
          throw new WebhookTargetError(
            `${host} resolves to ${address}, a ${range} address: webhooks are not sent there (an operator may allow the host in WEBHOOK_ALLOWED_HOSTS)`,
          );
        }
      }
    }
    return addresses[0];
  }
}

/** ipaddr.js's name of the range (`unicast` for a public one), IPv4 inside IPv6 unwrapped. */
function rangeOf(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address().range();
  }
  return parsed.range();
}
