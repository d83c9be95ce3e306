import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentIdentity } from '../http/caller.decorators';
import { Identity } from '../common/identity';
import { AccessService, PrivilegesDescription } from '../access/access.service';

@ApiTags('access')
@Controller('rest/metadata')
export class PrivilegesController {
  constructor(private readonly access: AccessService) {}

  @Get('privileges')
  // The id it had before the route moved here: generated clients name operations by it.
  @ApiOperation({ operationId: 'AccessController_privileges' })
  @ApiOkResponse({
    description:
      'The caller’s roles, its depth per entity type and action, and the secured properties it may read or update',
  })
  privileges(@CurrentIdentity() identity: Identity): Promise<PrivilegesDescription> {
    return this.access.describe(identity);
  }
}
