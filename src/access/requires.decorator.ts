import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiForbiddenResponse } from '@nestjs/swagger';
import { holdersOf, Privilege, PRIVILEGES } from './access.privileges';

export const REQUIRED_PRIVILEGE = 'atrium:requires';

/** The OpenAPI extension naming an operation's privilege, as immich's `x-immich-permission`. */
export const PRIVILEGE_EXTENSION = 'x-atrium-requires';

/** What the OpenAPI document says of an operation that needs `privilege`. */
export function privilegeNote(privilege: Privilege): string {
  return `Needs the privilege ${privilege} (held by ${holdersOf(privilege)}), to ${PRIVILEGES[privilege].lets}`;
}

/**
 * The route needs a named privilege (access.privileges.ts): the authentication guard
 * refuses it with a 403 to a caller who does not hold it, and the OpenAPI document says
 * so on the operation (`x-atrium-requires` and its 403).
 */
export const Requires = (privilege: Privilege) =>
  applyDecorators(
    SetMetadata(REQUIRED_PRIVILEGE, privilege),
    ApiExtension(PRIVILEGE_EXTENSION, privilege),
    ApiForbiddenResponse({ description: privilegeNote(privilege) }),
  );
