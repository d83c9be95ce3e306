import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-strategy';
import { Identity } from '../../common/identity';
import { identityOf } from '../identity.mapper';
import { ExternalUsers } from '../oidc/external-users.service';
import { OidcSignIn } from '../oidc/oidc-sign-in.service';
import { SessionService } from '../session.service';
import { AUTH_STRATEGY_COOKIE, readCookie, refreshTokenCookie } from '../session-cookies';

/**
 * Spec 5.4's refresh filter: cookies `auth.strategy` (a provider) and
 * `auth._refresh_token.<provider>` (its refresh token, sealed). When the provider renews
 * the tokens, the request is authenticated and a new session starts (its cookies and
 * the renewed refresh token are sent back); otherwise the chain moves on.
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

  override authenticate(request: Parameters<Strategy['authenticate']>[0]): void {
    const fastifyRequest = request as unknown as FastifyRequest;
    const provider = readCookie(fastifyRequest, AUTH_STRATEGY_COOKIE);
    const sealed = provider && readCookie(fastifyRequest, refreshTokenCookie(provider));
    if (!provider || !sealed) return this.fail(401);
    this.identityOf(provider, sealed).then(
      (identity) => (identity ? this.success(identity) : this.fail(401)),
      () => this.fail(401), // an unknown or refused user: not this filter's match
    );
  }

  private async identityOf(provider: string, sealed: string): Promise<Identity | undefined> {
    const renewed = await this.signIn.refresh(provider, sealed);
    if (!renewed) return undefined;
    const user = await this.users.userFor(renewed.external);
    const refreshToken = renewed.refreshToken ?? sealed;
    const session = await this.sessions.create(user.key, 'oidc', user.locale, {
      provider,
      accessExpiresAt: renewed.accessExpiresAt,
      refreshToken,
    });
    return identityOf(user, 'oidc', user.locale, {
      key: session.key,
      csrfToken: session.csrfToken,
      issued: { ...session, refresh: { provider, sealedToken: refreshToken } },
    });
  }

  validate(): never {
    throw new Error('RefreshCookieStrategy authenticates in authenticate()');
  }
}
