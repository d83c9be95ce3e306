import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import { SessionService } from '../session.service';
import { AUTH_TOKEN_COOKIE, readCookie, setAuthTokenCookie } from '../session-cookies';

/**
 * Spec 5.3's cookie filter: the token in `svc.rest.auth.token` names a live session.
 * An old token is rotated and the new one set on the response.
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, 'session') {
  constructor(private readonly sessions: SessionService) {
    super();
  }

  override authenticate(request: Request): void {
    const token = readCookie(request, AUTH_TOKEN_COOKIE);
    if (!token) return this.fail(401);
    this.sessions.resolve(token).then(
      (resolved) => {
        if (!resolved) return this.fail(401);
        if (resolved.rotatedToken && request.res)
          setAuthTokenCookie(request.res, resolved.rotatedToken);
        this.success(resolved.identity);
      },
      (error: unknown) => this.error(error as Error),
    );
  }

  /** Unused: `authenticate` does the work; the mixin requires the method. */
  validate(): never {
    throw new Error('SessionStrategy authenticates in authenticate()');
  }
}
