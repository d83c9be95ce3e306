import {
  CanActivate,
  ExecutionContext,
  Injectable,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import type { Request } from 'express';

/**
 * 415 unless the request says text/plain (runs after authentication: 401 comes first).
 * Reads the header itself: `request.is()` answers null for an empty body, which must
 * reach the parser and be a 400.
 */
@Injectable()
export class RequireTextGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'text/plain') {
      throw new UnsupportedMediaTypeException('Content-Type must be text/plain');
    }
    return true;
  }
}
