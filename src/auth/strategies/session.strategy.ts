import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-strategy';
import { Identity } from '../../common/identity';
import { OidcSignIn } from '../oidc/oidc-sign-in.service';
import { ResolvedSession, SessionService } from '../session.service';
import { AUTH_TOKEN_COOKIE, readCookie } from '../session-cookies';

/**
 * Spec 5.3's cookie filter: the token in `svc.rest.auth.token` names a live session.
 * An old token is rotated (the guard sets the new one on the response). A session of an
 * OpenID sign-in whose access token has expired is renewed with its refresh token, or
 * ends.
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, 'session') {
  constructor(
    private readonly sessions: SessionService,
    private readonly signIn: OidcSignIn,
  ) {
    super();
  }

  // Passport types the request as Express's; Fastify's has the headers it reads.
  override authenticate(request: Parameters<Strategy['authenticate']>[0]): void {
    const token = readCookie(request as unknown as FastifyRequest, AUTH_TOKEN_COOKIE);
    if (!token) return this.fail(401);
    this.identityOf(token).then(
      (identity) => (identity ? this.success(identity) : this.fail(401)),
      (error: unknown) => this.error(error as Error),
    );
  }

  private async identityOf(token: string): Promise<Identity | undefined> {
    const resolved = await this.sessions.resolve(token);
    if (!resolved || !(await this.renewed(resolved))) return undefined;
    const { identity, rotatedToken } = resolved;
    return rotatedToken
      ? { ...identity, session: { ...identity.session!, rotatedToken } }
      : identity;
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

  /** Unused: `authenticate` does the work; the mixin requires the method. */
  validate(): never {
    throw new Error('SessionStrategy authenticates in authenticate()');
  }
}
