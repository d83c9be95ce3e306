import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-strategy';

/**
 * Spec 5.4's refresh filter (cookies `auth.strategy` and
 * `auth._refresh_token.<provider>`). It matches only when an OpenID provider handles the
 * named strategy; no provider is configurable yet, so it never matches and the chain
 * moves on.
 */
@Injectable()
export class RefreshCookieStrategy extends PassportStrategy(Strategy, 'refresh') {
  constructor() {
    super();
  }

  override authenticate(): void {
    this.fail(401);
  }

  validate(): never {
    throw new Error('RefreshCookieStrategy authenticates in authenticate()');
  }
}
