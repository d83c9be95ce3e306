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

const CONTENT_TYPES = 'atrium:content-types';

/** A Content-Type header's media type, lower-case, without parameters ('' without one). */
export function mediaTypeOf(header: unknown): string {
  return typeof header === 'string' ? header.split(';')[0].trim().toLowerCase() : '';
}

/** The media type of a request's body. */
export function contentTypeOf(request: { headers: Record<string, unknown> }): string {
  return mediaTypeOf(request.headers['content-type']);
}

/**
 * 415 unless the request's Content-Type is one of `types`. A guard, so it runs after
 * authentication (401 comes first). An empty body with the right type reaches the
 * handler, whose 400 says what is missing.
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
    const type = contentTypeOf(context.switchToHttp().getRequest());
    if (!types.includes(type)) {
      throw new UnsupportedMediaTypeException(`Content-Type must be ${types.join(' or ')}`);
    }
    return true;
  }
}
