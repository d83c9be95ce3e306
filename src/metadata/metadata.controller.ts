import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentIdentity } from '../http/caller.decorators';
import { Identity } from '../common/identity';
import { WorkflowDescription, WorkflowService } from '../workflow/workflow.service';
import { EntityDescription } from './entity-description';
import { MetadataService } from './metadata.service';

@ApiTags('metadata')
@Controller('rest/metadata')
export class MetadataController {
  constructor(
    private readonly metadata: MetadataService,
    private readonly workflows: WorkflowService,
  ) {}

  @Get('entity')
  @ApiOkResponse({
    description: 'Every entity type the caller may read',
    schema: { type: 'array', items: { $ref: '#/components/schemas/EntityDescription' } },
  })
  entities(@CurrentIdentity() identity: Identity): Promise<EntityDescription[]> {
    return this.metadata.entities(identity);
  }

  @Get('entity/:name')
  @ApiOkResponse({
    description: 'One entity type, as in the list',
    schema: { $ref: '#/components/schemas/EntityDescription' },
  })
  @ApiNotFoundResponse({ description: 'No such type, or one the caller may not read' })
  entity(
    @CurrentIdentity() identity: Identity,
    @Param('name') name: string,
  ): Promise<EntityDescription> {
    return this.metadata.entity(identity, name);
  }

  /** The same description as GET /rest/workflow: one registry serves both. */
  @Get('workflow')
  @ApiOkResponse({
    description: 'Every workflow, its methods, their arguments and what they require',
    schema: { type: 'array', items: { $ref: '#/components/schemas/WorkflowDescription' } },
  })
  workflowList(): WorkflowDescription[] {
    return this.workflows.list();
  }
}
