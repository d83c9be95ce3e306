import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { HttpRequest } from '../http/http.types';
import { Environment } from '../config/environment';

/**
 * Login CSRF: a page on another site must not sign a browser in (to an account of the
 * attacker's, whose later use the attacker then reads). Browsers say where a request
 * comes from: `Sec-Fetch-Site` (all current ones), else `Origin`. A cross-site login is
 * refused; same-origin, same-site (an SPA on a sibling host), a typed URL and clients
 * that send neither header (curl, servers) are let through.
 */
@Injectable()
export class LoginOriginGuard implements CanActivate {
  private readonly publicHost?: string;

  constructor(config: ConfigService<Environment, true>) {
    const publicUrl = config.get('PUBLIC_URL', { infer: true });
    this.publicHost = publicUrl ? new URL(publicUrl).host : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<HttpRequest>();
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined) {
      if (site === 'cross-site') throw refused();
      return true;
    }
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    if (!this.isOwnHost(hostOf(origin), request)) throw refused();
    return true;
  }

  /** Compared by host and port: behind a proxy the scheme the server sees may differ. */
  private isOwnHost(host: string | undefined, request: HttpRequest): boolean {
    return host !== undefined && (host === request.headers.host || host === this.publicHost);
  }
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host || undefined; // "null" (a sandboxed page) has none
  } catch {
    return undefined;
  }
}

function refused(): ForbiddenException {
  return new ForbiddenException('Sign-in from another site is refused (login CSRF)');
}
