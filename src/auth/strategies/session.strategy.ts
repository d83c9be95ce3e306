import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-strategy';
import { SessionService } from '../session.service';
import { AUTH_TOKEN_COOKIE, readCookie } from '../session-cookies';

/**
 * Spec 5.3's cookie filter: the token in `svc.rest.auth.token` names a live session.
 * An old token is rotated; the guard sets the new one on the response.
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, 'session') {
  constructor(private readonly sessions: SessionService) {
    super();
  }

  // Passport types the request as Express's; Fastify's has the headers it reads.
  override authenticate(request: Parameters<Strategy['authenticate']>[0]): void {
    const token = readCookie(request as unknown as FastifyRequest, AUTH_TOKEN_COOKIE);
    if (!token) return this.fail(401);
    this.sessions.resolve(token).then(
      (resolved) => {
        if (!resolved) return this.fail(401);
        const { identity, rotatedToken } = resolved;
        this.success(
          rotatedToken
            ? { ...identity, session: { ...identity.session!, rotatedToken } }
            : identity,
        );
      },
      (error: unknown) => this.error(error as Error),
    );
  }

  /** Unused: `authenticate` does the work; the mixin requires the method. */
  validate(): never {
    throw new Error('SessionStrategy authenticates in authenticate()');
  }
}
