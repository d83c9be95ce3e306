import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExcludeEndpoint,
  ApiFailedDependencyResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { RequireContentType } from '../common/content-type.guard';
import { WorkflowDescription, WorkflowService } from './workflow.service';

@ApiTags('workflow')
@Controller('rest/workflow')
export class WorkflowController {
  constructor(private readonly workflows: WorkflowService) {}

  @Get()
  @ApiOkResponse({
    description:
      '[{name, methods: [{name, access, requires, roles, arguments: [{name, type, required}]}]}]: every workflow (as GET /rest/metadata/workflow)',
  })
  list(): WorkflowDescription[] {
    return this.workflows.list();
  }

  /** In the OpenAPI document as a path per method instead (metadata/api-document.ts). */
  @Post(':workflow/:method')
  @ApiExcludeEndpoint()
  @HttpCode(200)
  @RequireContentType('application/json')
  @ApiOkResponse({ description: "The method's result object; any other value as {result}" })
  @ApiBadRequestResponse({
    description: 'Body not an object, an argument missing, unknown or of the wrong type',
  })
  @ApiForbiddenResponse({
    description: 'An admin-only method, or a cookie session without CSRF header',
  })
  @ApiNotFoundResponse({ description: 'Unknown workflow or method' })
  @ApiFailedDependencyResponse({ description: 'A business rule (entity hook) failed (spec 2.4)' })
  @ApiUnsupportedMediaTypeResponse({ description: 'Not application/json' })
  run(
    @Param('workflow') workflow: string,
    @Param('method') method: string,
    @Body() body: unknown,
  ): Promise<object> {
    return this.workflows.run(workflow, method, body);
  }
}
