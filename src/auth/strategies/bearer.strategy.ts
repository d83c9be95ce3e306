import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-strategy';
import { Identity } from '../../common/identity';
import { identityOf } from '../identity.mapper';
import { AccessTokenVerifier } from '../oidc/access-token.verifier';
import { ExternalUsers } from '../oidc/external-users.service';
import { sha256 } from '../../common/secrets';

/** Verified tokens are kept this long at most (and never past their expiry). */
const CACHE_MS = 60_000;
const MAX_CACHED_TOKENS = 10_000;
const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * `Authorization: Bearer <access token>` of a configured provider: a stateless API call,
 * as with an API key (no session, no CSRF). Last in the default chain.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  private readonly cache = new Map<string, { identity: Identity; until: number }>();

  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly users: ExternalUsers,
  ) {
    super();
  }

  override authenticate(request: Parameters<Strategy['authenticate']>[0]): void {
    const header = (request as unknown as FastifyRequest).headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) return this.fail(401);
    this.identityOf(token).then(
      (identity) => this.success(identity),
      () => this.fail(401),
    );
  }

  private async identityOf(token: string): Promise<Identity> {
    const hash = sha256(token);
    const cached = this.cache.get(hash);
    if (cached && cached.until > Date.now()) return cached.identity;
    const external = await this.verifier.verify(token);
    const user = await this.users.userFor(external);
    const identity = identityOf(user, 'oidc', user.locale);
    if (this.cache.size >= MAX_CACHED_TOKENS) this.cache.clear();
    this.cache.set(hash, {
      identity,
      until: Math.min(Date.now() + CACHE_MS, external.expiresAt * 1000),
    });
    return identity;
  }

  validate(): never {
    throw new Error('BearerStrategy authenticates in authenticate()');
  }
}
