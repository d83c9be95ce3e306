import {
  BadRequestException,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { Sealer } from './sealer.service';
import { NewSession, SessionService, SessionTokens } from '../session.service';
import { AccessTokenVerifier, ExternalIdentity, externalIdentityOf } from './access-token.verifier';
import { UserRow } from '../../directory/user.repository';
import { ExternalUsers } from './external-users.service';
import { OauthLoginRepository } from './oauth-login.repository';
import { OidcProvider } from './oidc.config';
import { OidcProviders } from './oidc-providers.service';
import { ChangeLog } from '../../changes/change-log.service';
import type { HttpRequest } from '../../http/http.types';
import { actorOfUser, userEvent } from '../security-events';

/** How long a login may take at the provider, from its start to the callback. */
const LOGIN_MINUTES = 10;
const STATE = 'oauth-state';
const SEALED_REFRESH_TOKEN = 'refresh-token';

export interface SignedIn {
  user: UserRow;
  tokens: SessionTokens;
  /** The provider's name. */
  provider: string;
}

export interface Renewed {
  external: ExternalIdentity;
  accessExpiresAt: Date;
  /** Sealed; set when the provider rotated the refresh token. */
  refreshToken?: string;
}

interface SealedState {
  /** The oauth_login row. */
  id: string;
  provider: string;
  redirectUrl: string;
  /** Milliseconds since the epoch. */
  expires: number;
}

/**
 * Signing in with an OpenID provider, through openid-client: the token form of POST
 * /auth, the authorization code flow with PKCE (GET /oauth/…), and renewing tokens with
 * a refresh token. Refresh tokens are kept sealed; the PKCE verifier and the nonce stay
 * on the server (`oauth_login`), and `state` is sealed, expiring and good once.
 */
@Injectable()
export class OidcSignIn {
  constructor(
    private readonly providers: OidcProviders,
    private readonly verifier: AccessTokenVerifier,
    private readonly users: ExternalUsers,
    private readonly sealer: Sealer,
    private readonly sessions: SessionService,
    private readonly logins: OauthLoginRepository,
    private readonly changeLog: ChangeLog,
  ) {}

  /**
   * The callback of the code flow, whole: a session for the user, the sealed refresh
   * token for the refresh filter's cookies, and where to send the browser.
   */
  async finishLogin(
    name: string,
    currentUrl: URL,
    request: HttpRequest,
  ): Promise<{ session: NewSession; refreshToken?: string; redirectUrl: string }> {
    const via = `oidc ${name}`;
    const detail = { address: request.ip ?? '', strategy: via };
    const { user, tokens, redirectUrl } = await this.completeLogin(name, currentUrl).catch(
      async (error: unknown) => {
        await this.changeLog.recordNow(
          actorOfUser(undefined, via, request.id),
          userEvent('sign_in_failed', undefined, { ...detail, reason: (error as Error).message }),
        );
        throw error;
      },
    );
    const session = await this.sessions.create(user.key, 'oidc', user.locale, tokens);
    await this.changeLog.recordNow(
      actorOfUser(user, via, request.id),
      userEvent('signed_in', user, detail),
    );
    return { session, refreshToken: tokens.refreshToken, redirectUrl };
  }

  /** POST /auth with Oidc-Auth-Token (and Oidc-Refresh-Token). */
  async withTokens(accessToken: string, refreshToken?: string): Promise<SignedIn> {
    const external = await this.verifier.verify(accessToken);
    return {
      user: await this.users.userFor(external),
      tokens: await this.tokensOf(external, refreshToken),
      provider: external.provider.name,
    };
  }

  /** GET /oauth/{provider}/login: where to send the browser. */
  async authorizationUrl(
    name: string,
    redirectUrl: string | undefined,
    baseUrl: string,
  ): Promise<string> {
    const provider = this.provider(name);
    if (!redirectUrl)
      throw new BadRequestException('redirectUrl is required: where to return after login');
    if (!provider.redirectUrls.includes(redirectUrl)) {
      throw new BadRequestException(
        `redirectUrl ${redirectUrl} is not on provider ${name}'s allow-list`,
      );
    }
    const configuration = await this.configuration(provider);
    const id = randomUUID();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    await this.logins.insert(id, name, { codeVerifier, nonce }, redirectUrl, LOGIN_MINUTES);
    const state: SealedState = {
      id,
      provider: name,
      redirectUrl,
      expires: Date.now() + LOGIN_MINUTES * 60_000,
    };
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: callbackUrl(baseUrl, name),
      scope: provider.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: await this.sealer.seal(STATE, JSON.stringify(state)),
      nonce,
    }).href;
  }

  /** GET /oauth/{provider}?state=…&code=…: the user, the tokens, and where to return. */
  private async completeLogin(
    name: string,
    currentUrl: URL,
  ): Promise<SignedIn & { redirectUrl: string }> {
    const provider = this.provider(name);
    const sealed = currentUrl.searchParams.get('state');
    const error = currentUrl.searchParams.get('error');
    if (error) {
      const description = currentUrl.searchParams.get('error_description');
      throw new BadRequestException(
        `The provider refused the login: ${error}${description ? ` (${description})` : ''}`,
      );
    }
    if (!sealed || !currentUrl.searchParams.get('code')) {
      throw new BadRequestException('state and code are required');
    }
    const opened = await this.sealer.open(STATE, sealed);
    const state = opened ? (JSON.parse(opened) as SealedState) : undefined;
    if (!state || state.provider !== name) throw new BadRequestException('state is not valid');
    if (state.expires < Date.now())
      throw new BadRequestException('state has expired: log in again');
    const login = await this.logins.consume(state.id);
    if (!login) throw new BadRequestException('state has been used already: log in again');
    let tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
    try {
      tokens = await oidc.authorizationCodeGrant(await this.configuration(provider), currentUrl, {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: sealed,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new BadRequestException(`The provider refused the login: ${describe(error)}`);
    }
    const external = this.externalOf(provider, tokens);
    return {
      user: await this.users.userFor(external),
      tokens: await this.tokensOf(external, tokens.refresh_token),
      provider: provider.name,
      redirectUrl: state.redirectUrl,
    };
  }

  /** New tokens from a sealed refresh token; undefined when the provider says no. */
  async refresh(name: string, sealedRefreshToken: string): Promise<Renewed | undefined> {
    const provider = this.providers.find(name);
    const refreshToken = await this.sealer.open(SEALED_REFRESH_TOKEN, sealedRefreshToken);
    if (!provider || !refreshToken) return undefined;
    let tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
    try {
      tokens = await oidc.refreshTokenGrant(await this.configuration(provider), refreshToken);
    } catch {
      return undefined;
    }
    const external = tokens.claims()
      ? this.externalOf(provider, tokens)
      : await this.verifier.verify(tokens.access_token).catch(() => undefined);
    if (!external) return undefined;
    return {
      external,
      accessExpiresAt: new Date(external.expiresAt * 1000),
      refreshToken:
        tokens.refresh_token && tokens.refresh_token !== refreshToken
          ? await this.sealRefresh(tokens.refresh_token)
          : undefined,
    };
  }

  /** What a session keeps of a sign-in: its provider, expiry and sealed refresh token. */
  private async tokensOf(
    external: ExternalIdentity,
    refreshToken?: string,
  ): Promise<SessionTokens> {
    return {
      provider: external.provider.name,
      accessExpiresAt: new Date(external.expiresAt * 1000),
      refreshToken: refreshToken ? await this.sealRefresh(refreshToken) : undefined,
    };
  }

  private sealRefresh(refreshToken: string): Promise<string> {
    return this.sealer.seal(SEALED_REFRESH_TOKEN, refreshToken);
  }

  private provider(name: string): OidcProvider {
    const provider = this.providers.find(name);
    if (!provider) throw new NotFoundException(`No OpenID provider is named "${name}"`);
    return provider;
  }

  private async configuration(provider: OidcProvider): Promise<oidc.Configuration> {
    try {
      return await this.providers.configuration(provider);
    } catch (error) {
      throw new ServiceUnavailableException(
        `OpenID provider ${provider.name} cannot be reached: ${(error as Error).message}`,
      );
    }
  }

  /** The identity in an ID token (openid-client checked its signature, iss, aud, exp, nonce). */
  private externalOf(
    provider: OidcProvider,
    tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  ): ExternalIdentity {
    const claims = tokens.claims()!;
    const expiresAt = Math.floor(Date.now() / 1000) + (tokens.expires_in ?? 300);
    return externalIdentityOf(provider, claims.sub, expiresAt, claims);
  }
}

/** openid-client's errors: the provider's OAuth error and description when it sent them. */
function describe(error: unknown): string {
  const {
    error: code,
    error_description: description,
    message,
  } = error as {
    error?: string;
    error_description?: string;
    message: string;
  };
  return code ? `${code}${description ? ` (${description})` : ''}` : message;
}

function callbackUrl(baseUrl: string, provider: string): string {
  return `${baseUrl}/oauth/${encodeURIComponent(provider)}`;
}
