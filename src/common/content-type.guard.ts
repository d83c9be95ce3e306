import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UnsupportedMediaTypeException,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';

const CONTENT_TYPES = 'atrium:content-types';

/**
 * 415 unless the request's Content-Type is one of `types`. A guard, so it runs after
 * authentication (401 comes first). It reads the header itself: `request.is()` answers
 * null for an empty body, which must reach the handler and be its 400.
 */
export function RequireContentType(...types: string[]): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(CONTENT_TYPES, types), UseGuards(ContentTypeGuard));
}

@Injectable()
export class ContentTypeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const types = this.reflector.getAllAndOverride<string[]>(CONTENT_TYPES, [
      context.getHandler(),
      context.getClass(),
    ]);
    const request = context.switchToHttp().getRequest<Request>();
    const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!types.includes(type)) {
      throw new UnsupportedMediaTypeException(`Content-Type must be ${types.join(' or ')}`);
    }
    return true;
  }
}
