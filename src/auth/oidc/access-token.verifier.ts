import { Injectable, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { createPublicKey, JsonWebKeyInput, KeyObject, webcrypto } from 'node:crypto';
import {
  CompactJWSHeaderParameters,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  JWTPayload,
  JWTVerifyGetKey,
} from 'jose';
import * as oidc from 'openid-client';
import { OidcProvider } from './oidc.config';
import { OidcProviders } from './oidc-providers.service';

/** Signatures by key pairs only: `none` and shared-secret (HS*) tokens are refused. */
export const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];
/** How long an opaque token's userinfo answer is trusted, having no expiry of its own. */
const OPAQUE_TOKEN_SECONDS = 300;

export interface ExternalIdentity {
  provider: OidcProvider;
  subject: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  name?: string;
  email?: string;
  preferredUsername?: string;
}

/**
 * An access token from a configured provider, checked as spec 4.1 and DESIGN.md ask: a
 * JWT is verified against its issuer's key set (signature, `iss`, `exp`, and `aud` or
 * `azp` against the provider's audience); an opaque token is asked about at the default
 * provider's userinfo endpoint, when it has one. Anything else is a 401.
 */
@Injectable()
export class AccessTokenVerifier {
  constructor(private readonly providers: OidcProviders) {}

  verify(token: string): Promise<ExternalIdentity> {
    return token.split('.').length === 3 ? this.verifyJwt(token) : this.verifyOpaque(token);
  }

  private async verifyJwt(token: string): Promise<ExternalIdentity> {
    const provider = this.issuerOf(token);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.providers.keySet(provider), {
        issuer: provider.issuer,
        algorithms: ALGORITHMS,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      throw refused(reasonOf(error));
    }
    return this.identityOfClaims(payload);
  }

  /**
   * The key a JWT's signature is checked with: its issuer's (a configured provider), the
   * one its `kid` names in that issuer's key set. A refusal is a 401; a provider that
   * cannot be reached is a 503 (passport-jwt's BearerStrategy asks this).
   */
  async keyFor(token: string): Promise<KeyObject> {
    const provider = this.issuerOf(token);
    const header = decodeProtectedHeader(token) as CompactJWSHeaderParameters;
    const [, payload, signature] = token.split('.');
    let key: Awaited<ReturnType<JWTVerifyGetKey>>;
    try {
      key = await (await this.providers.keySet(provider))(header, { payload, signature });
    } catch (error) {
      if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout)) {
        throw refused(reasonOf(error));
      }
      throw new ServiceUnavailableException(
        `The OpenID provider ${provider.name} cannot be reached to check the token`,
      );
    }
    // A remote key set's keys are public CryptoKeys; the rest is for the type's sake.
    if (key instanceof KeyObject) return key;
    if (key instanceof Uint8Array) throw refused('the token is signed with a shared secret');
    return 'kty' in key
      ? createPublicKey({ key: key as JsonWebKeyInput['key'], format: 'jwk' })
      : KeyObject.from(key as webcrypto.CryptoKey);
  }

  /** The configured provider that issued a JWT (read, not yet verified): else a 401. */
  private issuerOf(token: string): OidcProvider {
    let issuer: string | undefined;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw refused('the token is not a JWT');
    }
    return this.provider(issuer);
  }

  private provider(issuer: string | undefined): OidcProvider {
    const provider = issuer ? this.providers.byIssuer(issuer) : undefined;
    if (!provider) throw refused(`tokens of issuer ${issuer ?? '(none)'} are not accepted here`);
    return provider;
  }

  /**
   * Who a verified token's claims name, once they are checked against its issuer: `iss`
   * a configured provider, `sub` and `exp` present, `aud` or `azp` the provider's audience.
   */
  identityOfClaims(payload: JWTPayload): ExternalIdentity {
    const provider = this.provider(payload.iss);
    if (payload.sub === undefined || payload.exp === undefined) {
      throw refused('the token has no sub or exp claim');
    }
    const audiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
    if (!audiences.includes(provider.audience) && payload.azp !== provider.audience) {
      throw refused(`the token is not for this server (aud/azp ${provider.audience} expected)`);
    }
    return externalIdentityOf(provider, payload.sub, payload.exp, payload);
  }

  /** An opaque token, asked about at the default provider's userinfo endpoint. */
  async verifyOpaque(token: string): Promise<ExternalIdentity> {
    const provider = this.providers.defaultProvider;
    if (!provider) throw refused('no OpenID provider is configured on this server');
    const configuration = await this.providers.configuration(provider);
    if (!configuration.serverMetadata().userinfo_endpoint) {
      throw refused('the token is not a JWT, and the provider has no userinfo endpoint');
    }
    let claims: oidc.UserInfoResponse;
    try {
      claims = await oidc.fetchUserInfo(configuration, token, oidc.skipSubjectCheck);
    } catch {
      throw refused('the provider does not know this token');
    }
    return externalIdentityOf(
      provider,
      claims.sub,
      Math.floor(Date.now() / 1000) + OPAQUE_TOKEN_SECONDS,
      claims,
    );
  }
}

/** Who the claims (of an access or ID token, or userinfo) say the user is. */
export function externalIdentityOf(
  provider: OidcProvider,
  subject: string,
  expiresAt: number,
  claims: Record<string, unknown>,
): ExternalIdentity {
  const text = (name: string) => (typeof claims[name] === 'string' ? claims[name] : undefined);
  return {
    provider,
    subject,
    expiresAt,
    name: text('name'),
    email: text('email'),
    preferredUsername: text('preferred_username'),
  };
}

function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return 'the token signature is not valid';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the token is not signed with a key pair';
  if (error instanceof errors.JWTClaimValidationFailed)
    return `the token's ${error.claim} claim is not valid`;
  if (error instanceof errors.JWKSNoMatchingKey) return 'the token is signed with an unknown key';
  return 'the token could not be verified';
}

function refused(reason: string): UnauthorizedException {
  return new UnauthorizedException(`Access token refused: ${reason}`);
}
