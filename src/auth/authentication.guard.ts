import { types } from 'node:util';
import {
  ExecutionContext,
  ForbiddenException,
  HttpException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Privilege } from '../access/access.privileges';
import { AccessService } from '../access/access.service';
import { REQUIRED_PRIVILEGE } from '../access/requires.decorator';
import { AuthGuard, AuthModuleOptions } from '@nestjs/passport';
import type { HttpRequest, HttpResponse } from '../http/http.types';
import { Identity } from '../common/identity';
import { IS_CSRF_EXEMPT, IS_PUBLIC } from '../http/caller.decorators';
import { safeEqual } from '../common/secrets';
import {
  CookiesToSend,
  CSRF_HEADER,
  setAuthTokenCookie,
  setRefreshCookies,
  setSessionCookies,
} from './session-cookies';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The one global guard (spec 5.1): runs the strategies in the configured order
 * (`AUTH_STRATEGIES`, via PassportModule's defaultStrategy), the first match decides;
 * then CSRF for cookie sessions (spec 5.5) and the privilege a route `@Requires`.
 */
@Injectable()
export class AuthenticationGuard extends AuthGuard() {
  constructor(
    options: AuthModuleOptions,
    private readonly reflector: Reflector,
    private readonly access: AccessService,
  ) {
    super(options);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    const request = context.switchToHttp().getRequest<HttpRequest & { user?: Identity }>();
    const privilege = this.reflector.getAllAndOverride<Privilege | undefined>(REQUIRED_PRIVILEGE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!request.user) {
      // A public route, an anonymous caller; a privilege is never an anonymous caller's.
      if (privilege) throw new UnauthorizedException(`This route needs the privilege ${privilege}`);
      return true;
    }
    // The request's own copy: a strategy may hand several requests the same cached object,
    // and the access scope is worked out once per Identity object (AccessService.scopeOf).
    const identity = (request.user = { ...request.user, requestId: request.id });

    if (
      identity.session &&
      STATE_CHANGING.has(request.method) &&
      !this.flag(IS_CSRF_EXEMPT, context)
    ) {
      const sent = request.headers[CSRF_HEADER.toLowerCase()];
      if (typeof sent !== 'string' || !safeEqual(sent, identity.session.csrfToken)) {
        throw new ForbiddenException(`Missing or wrong ${CSRF_HEADER} header`);
      }
    }
    if (privilege) {
      const refusal = (await this.access.scopeOf(identity)).privilegeRefusal(privilege);
      if (refusal) throw new ForbiddenException(refusal);
    }
    return true;
  }

  /** Cookies a strategy has for the client: a rotated token, or a new session's. */
  private sendCookies({ rotatedToken, issued }: CookiesToSend, reply: HttpResponse): void {
    if (rotatedToken) setAuthTokenCookie(reply, rotatedToken);
    if (issued) {
      setSessionCookies(reply, issued);
      if (issued.refresh)
        setRefreshCookies(reply, issued.refresh.provider, issued.refresh.sealedToken);
    }
  }

  /**
   * Passport's outcome: the first strategy that matched (and the cookies it hands back,
   * as `info`), an error (a 5xx: a database or provider outage, never a 401), or every
   * strategy failing — a 401 (naming the credential refused, if one was), unless one failed
   * because its provider could not be reached.
   */
  override handleRequest<TUser = Identity>(
    error: unknown,
    user: TUser | false,
    info: unknown,
    context: ExecutionContext,
  ): TUser {
    // isNativeError, not instanceof: an error of another realm (Node's own, under a
    // test's VM) is thrown as it is, its code telling an outage from a fault.
    if (error) throw types.isNativeError(error) ? error : new Error(JSON.stringify(error));
    if (user) {
      if (isCookies(info)) this.sendCookies(info, context.switchToHttp().getResponse());
      return user;
    }
    const challenges: unknown[] = Array.isArray(info) ? info : [info];
    const outage = challenges.find((c) => c instanceof HttpException && c.getStatus() >= 500);
    if (outage) throw outage as HttpException;
    if (this.flag(IS_PUBLIC, context)) return undefined as TUser;
    // A credential sent and refused (an API key unknown, expired or revoked) says which.
    const refused = challenges.find((c) => c instanceof UnauthorizedException);
    if (refused) throw refused;
    throw new UnauthorizedException(
      'Authentication required: send an API key, a session cookie or a bearer token',
    );
  }

  private flag(key: string, context: ExecutionContext): boolean {
    return (
      this.reflector.getAllAndOverride<boolean>(key, [context.getHandler(), context.getClass()]) ??
      false
    );
  }
}

function isCookies(info: unknown): info is CookiesToSend {
  return typeof info === 'object' && info !== null && ('rotatedToken' in info || 'issued' in info);
}
