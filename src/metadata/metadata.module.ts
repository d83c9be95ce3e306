import { Module } from '@nestjs/common';
import { WorkflowModule } from '../workflow/workflow.module';
import { ApiDocument } from './api-document';
import { MetadataController } from './metadata.controller';
import { MetadataService } from './metadata.service';

/** What a client can ask of the data model: entity types and workflows, and /docs of them. */
@Module({
  imports: [WorkflowModule],
  controllers: [MetadataController],
  providers: [MetadataService, ApiDocument],
})
export class MetadataModule {}
