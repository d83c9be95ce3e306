import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentIdentity } from '../http/caller.decorators';
import { Identity } from '../common/identity';
import { RequireContentType } from '../http/content-type.guard';
import { WorkflowDescription, WorkflowService } from './workflow.service';

@ApiTags('workflow')
@Controller('rest/workflow')
export class WorkflowController {
  constructor(private readonly workflows: WorkflowService) {}

  @Get()
  @ApiOkResponse({
    description: 'As GET /rest/metadata/workflow',
    schema: { type: 'array', items: { $ref: '#/components/schemas/WorkflowDescription' } },
  })
  list(): WorkflowDescription[] {
    return this.workflows.list();
  }

  /** In the OpenAPI document as a path per method instead (metadata/api-document.ts). */
  @Post(':workflow/:method')
  @ApiExcludeEndpoint()
  @HttpCode(200)
  @RequireContentType('application/json')
  run(
    @CurrentIdentity() identity: Identity,
    @Param('workflow') workflow: string,
    @Param('method') method: string,
    @Body() body: unknown,
  ): Promise<object> {
    return this.workflows.run(identity, workflow, method, body);
  }
}
