import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-custom';
import { Identity } from '../../common/identity';
import { OidcSignIn } from '../oidc/oidc-sign-in.service';
import { ResolvedSession, SessionService } from '../session.service';
import { AUTH_TOKEN_COOKIE, CookiesToSend, readCookie } from '../session-cookies';

/**
 * Spec 5.3's cookie filter: the token in `svc.rest.auth.token` names a live session.
 * An old token is rotated (handed back for the guard to set). A session of an OpenID
 * sign-in whose access token has expired is renewed with its refresh token, or ends.
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, 'session') {
  constructor(
    private readonly sessions: SessionService,
    private readonly signIn: OidcSignIn,
  ) {
    super();
  }

  /** No session: not this filter's request (null); a database error is the request's 5xx. */
  async validate(request: {
    headers: { cookie?: string };
  }): Promise<[Identity, CookiesToSend] | null> {
    const token = readCookie(request, AUTH_TOKEN_COOKIE);
    if (!token) return null;
    const resolved = await this.sessions.resolve(token);
    if (!resolved || !(await this.renewed(resolved))) return null;
    return [resolved.identity, { rotatedToken: resolved.rotatedToken }];
  }

  /** A session whose provider token has expired lives on only if the provider renews it. */
  private async renewed({ identity, expiredTokens }: ResolvedSession): Promise<boolean> {
    if (!expiredTokens) return true;
    const sessionKey = identity.session!.key;
    const renewed = await this.signIn.refresh(expiredTokens.provider, expiredTokens.refreshToken);
    if (!renewed) {
      await this.sessions.end(sessionKey);
      return false;
    }
    await this.sessions.updateTokens(sessionKey, renewed.accessExpiresAt, renewed.refreshToken);
    return true;
  }
}
