import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { ModelModule } from '../model/model.module';
import { WorkflowModule } from '../workflow/workflow.module';
import { ApiDocument } from './api-document';
import { MetadataController } from './metadata.controller';
import { MetadataService } from './metadata.service';
import { PrivilegesController } from './privileges.controller';

/**
 * What a client can ask of the data model: entity types, workflows and the caller's
 * privileges, and /docs of them.
 */
@Module({
  imports: [ModelModule, AccessModule, WorkflowModule],
  controllers: [MetadataController, PrivilegesController],
  providers: [MetadataService, ApiDocument],
  exports: [ApiDocument],
})
export class MetadataModule {}
