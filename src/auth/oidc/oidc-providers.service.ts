import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createRemoteJWKSet, JWTVerifyGetKey } from 'jose';
import * as oidc from 'openid-client';
import { PromiseCache } from '../../common/promise-cache';
import { Environment } from '../../config/environment';
import { loadOidcProviders, OidcProvider } from './oidc.config';

/**
 * The configured OpenID providers, and what the server learns of each on first use: its
 * discovery document (openid-client's Configuration) and its key set. Both are cached;
 * jose's remote key set fetches again when a token names a key it has not seen.
 * A failed discovery is not cached: the next use tries again.
 */
@Injectable()
export class OidcProviders {
  readonly all: OidcProvider[];
  private readonly configurations = new PromiseCache<oidc.Configuration>();
  private readonly keySets = new PromiseCache<JWTVerifyGetKey>();

  constructor(config: ConfigService<Environment, true>) {
    this.all = loadOidcProviders({
      OIDC_PROVIDERS: config.get('OIDC_PROVIDERS', { infer: true }),
      OIDC_PROVIDERS_FILE: config.get('OIDC_PROVIDERS_FILE', { infer: true }),
    });
  }

  find(name: string): OidcProvider | undefined {
    return this.all.find((p) => p.name === name);
  }

  byIssuer(issuer: string): OidcProvider | undefined {
    return this.all.find((p) => p.issuer === issuer);
  }

  get defaultProvider(): OidcProvider | undefined {
    return this.all.find((p) => p.isDefault);
  }

  configuration(provider: OidcProvider): Promise<oidc.Configuration> {
    return this.configurations.get(provider.name, () => {
      const insecure = new URL(provider.issuer).protocol === 'http:';
      return oidc.discovery(
        new URL(provider.issuer),
        provider.clientId,
        provider.clientSecret,
        provider.clientSecret ? undefined : oidc.None(),
        insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      );
    });
  }

  keySet(provider: OidcProvider): Promise<JWTVerifyGetKey> {
    return this.keySets.get(provider.name, async () => {
      const { jwks_uri } = (await this.configuration(provider)).serverMetadata();
      if (!jwks_uri) throw new Error(`${provider.issuer} publishes no jwks_uri`);
      return createRemoteJWKSet(new URL(jwks_uri));
    });
  }
}
