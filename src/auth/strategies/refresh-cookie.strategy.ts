import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-custom';
import { Identity } from '../../common/identity';
import { identityOf } from '../identity.mapper';
import { ExternalUsers } from '../oidc/external-users.service';
import { OidcSignIn } from '../oidc/oidc-sign-in.service';
import { SessionService } from '../session.service';
import { nullWhenRefused } from './no-match';
import {
  AUTH_STRATEGY_COOKIE,
  CookiesToSend,
  readCookie,
  refreshTokenCookie,
} from '../session-cookies';

/**
 * Spec 5.4's refresh filter: cookies `auth.strategy` (a provider) and
 * `auth._refresh_token.<provider>` (its refresh token, sealed). When the provider renews
 * the tokens, the request is authenticated and a new session starts (its cookies and the
 * renewed refresh token are handed back for the guard to set); otherwise the chain moves on.
 */
@Injectable()
export class RefreshCookieStrategy extends PassportStrategy(Strategy, 'refresh') {
  constructor(
    private readonly signIn: OidcSignIn,
    private readonly users: ExternalUsers,
    private readonly sessions: SessionService,
  ) {
    super();
  }

  async validate(request: {
    headers: { cookie?: string };
  }): Promise<[Identity, CookiesToSend] | null> {
    const provider = readCookie(request, AUTH_STRATEGY_COOKIE);
    const sealed = provider && readCookie(request, refreshTokenCookie(provider));
    if (!provider || !sealed) return null;
    const renewed = await this.signIn.refresh(provider, sealed);
    if (!renewed) return null;
    // An unknown or refused user is not this filter's match.
    const user = await nullWhenRefused(this.users.userFor(renewed.external));
    if (!user) return null;
    const refreshToken = renewed.refreshToken ?? sealed;
    const session = await this.sessions.create(user.key, 'oidc', user.locale, {
      provider,
      accessExpiresAt: renewed.accessExpiresAt,
      refreshToken,
    });
    const identity = identityOf(user, 'oidc', user.locale, {
      key: session.key,
      csrfToken: session.csrfToken,
    });
    return [identity, { issued: { ...session, refresh: { provider, sealedToken: refreshToken } } }];
  }
}
