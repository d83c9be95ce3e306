import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';

export const IS_PUBLIC = 'atrium:public';
export const IS_CSRF_EXEMPT = 'atrium:csrf-exempt';

/**
 * The route needs no credentials; credentials that are sent still authenticate the
 * request (GET /auth shows the user when there is one). Read by the guard and Swagger.
 */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiSecurity({}));

/** A cookie-authenticated write that needs no CSRF header (the login itself). */
export const CsrfExempt = () => SetMetadata(IS_CSRF_EXEMPT, true);
