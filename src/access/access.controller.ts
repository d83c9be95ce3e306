import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequestContext } from '../common/request-context';
import { AccessService, PrivilegesDescription } from './access.service';

@ApiTags('access')
@Controller('rest/metadata')
export class AccessController {
  constructor(
    private readonly access: AccessService,
    private readonly context: RequestContext,
  ) {}

  @Get('privileges')
  @ApiOkResponse({
    description:
      'The caller’s roles, its depth per entity type and action, and the secured properties it may read or update',
  })
  privileges(): Promise<PrivilegesDescription> {
    return this.access.describe(this.context.requireIdentity());
  }
}
