import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
} from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { Identity } from '../common/identity';

export const IS_PUBLIC = 'atrium:public';
export const IS_CSRF_EXEMPT = 'atrium:csrf-exempt';

/**
 * The route needs no credentials; credentials that are sent still authenticate the
 * request (GET /auth shows the user when there is one). Read by the guard and Swagger.
 */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiSecurity({}));

/** A cookie-authenticated write that needs no CSRF header (the login itself). */
export const CsrfExempt = () => SetMetadata(IS_CSRF_EXEMPT, true);

/**
 * The caller the authentication guard found, handed to the route as a parameter: a
 * service method that acts for the caller takes it first, as immich's do, instead of
 * reading it from an AsyncLocalStorage (on Node 20 such a store runs a hook for every
 * promise of every request). A public route gets `undefined` for an anonymous caller.
 */
export const CurrentIdentity = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Identity | undefined =>
    context.switchToHttp().getRequest<{ user?: Identity }>().user ?? undefined,
);
