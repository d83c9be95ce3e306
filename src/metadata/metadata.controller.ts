import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
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
    description:
      '[{name, label, parent?, childGroups: [{name, entity}], properties: [{name, label, type, nullable, required, maxLength?, precision?, scale?, enum?, lookup?: {entity}, computed, system, secured?, writeOnly?}]}]: every entity type the caller may read',
  })
  entities(): Promise<EntityDescription[]> {
    return this.metadata.entities();
  }

  @Get('entity/:name')
  @ApiOkResponse({ description: 'One entity type, as in the list' })
  @ApiNotFoundResponse({ description: 'No such type, or one the caller may not read' })
  entity(@Param('name') name: string): Promise<EntityDescription> {
    return this.metadata.entity(name);
  }

  /** The same description as GET /rest/workflow: one registry serves both. */
  @Get('workflow')
  @ApiOkResponse({
    description:
      '[{name, methods: [{name, access, requires, roles, arguments: [{name, type, required}]}]}]',
  })
  workflowList(): WorkflowDescription[] {
    return this.workflows.list();
  }
}
