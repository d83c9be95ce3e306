import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { IncomingMessage } from 'node:http';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { Strategy as CustomStrategy } from 'passport-custom';
import type { JWTPayload } from 'jose';
import { Identity } from '../../common/identity';
import { sha256 } from '../../common/secrets';
import { identityOf } from '../identity.mapper';
import { AccessTokenVerifier, ALGORITHMS, ExternalIdentity } from '../oidc/access-token.verifier';
import { ExternalUsers } from '../oidc/external-users.service';
import { nullWhenRefused } from './no-match';

/** Identities of verified tokens are kept this long at most (and never past their expiry). */
const CACHE_MS = 60_000;
const MAX_CACHED_TOKENS = 10_000;
const bearerToken = ExtractJwt.fromAuthHeaderAsBearerToken();

/** jsonwebtoken (under passport-jwt) has no EdDSA: those tokens are refused. */
const JWT_ALGORITHMS = ALGORITHMS.filter((algorithm) => algorithm !== 'EdDSA');

/**
 * The user of a verified access token, cached by the token's hash: a token is worth one
 * look-up of its user a minute, not one per request.
 */
@Injectable()
export class BearerIdentities {
  private readonly cache = new Map<string, { identity: Identity; until: number }>();

  constructor(private readonly users: ExternalUsers) {}

  async of(token: string, verify: () => Promise<ExternalIdentity>): Promise<Identity> {
    const hash = sha256(token);
    const cached = this.cache.get(hash);
    if (cached && cached.until > Date.now()) return cached.identity;
    const external = await verify();
    const user = await this.users.userFor(external);
    const identity = {
      ...identityOf(user, 'oidc', user.locale),
      via: `oidc ${external.provider.name}`,
    };
    if (this.cache.size >= MAX_CACHED_TOKENS) this.cache.clear();
    this.cache.set(hash, {
      identity,
      until: Math.min(Date.now() + CACHE_MS, external.expiresAt * 1000),
    });
    return identity;
  }
}

/**
 * `Authorization: Bearer <JWT>` of a configured provider, through passport-jwt: the key
 * resolved from the issuer's key set by `kid`, key-pair algorithms only, `exp` checked by
 * jsonwebtoken, `iss` / `aud` (or `azp`) / `sub` in validate(). A stateless API call, as
 * with an API key (no session, no CSRF). A provider that cannot be reached fails the
 * strategy with a 503 the guard passes on.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(JwtStrategy, 'bearer') {
  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly identities: BearerIdentities,
  ) {
    super({
      jwtFromRequest: bearerToken,
      // jsonwebtoken takes a KeyObject, which passport-jwt's types do not name.
      secretOrKeyProvider: (_request, token, done) => {
        verifier.keyFor(token as string).then(
          (key) => done(null, key as never),
          (error: unknown) => done(error),
        );
      },
      algorithms: JWT_ALGORITHMS as never,
      passReqToCallback: true,
    });
  }

  async validate(request: IncomingMessage, payload: JWTPayload): Promise<Identity | null> {
    const token = bearerToken(request)!;
    return nullWhenRefused(
      this.identities.of(token, () => Promise.resolve(this.verifier.identityOfClaims(payload))),
    );
  }
}

/**
 * `Authorization: Bearer <opaque token>`: not a JWT, so asked of the default provider's
 * userinfo endpoint. A JWT is the `bearer` strategy's, never this one's.
 */
@Injectable()
export class OpaqueBearerStrategy extends PassportStrategy(CustomStrategy, 'bearer-opaque') {
  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly identities: BearerIdentities,
  ) {
    super();
  }

  async validate(request: IncomingMessage): Promise<Identity | null> {
    const token = bearerToken(request);
    if (!token || token.split('.').length === 3) return null;
    return nullWhenRefused(this.identities.of(token, () => this.verifier.verifyOpaque(token)));
  }
}
