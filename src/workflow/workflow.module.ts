import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { WorkflowController } from './workflow.controller';
import { WorkflowRegistry } from './workflow.registry';
import { WorkflowService } from './workflow.service';

/** Workflows written as Nest providers (@Workflow / @WorkflowMethod), found at boot. */
@Module({
  imports: [DiscoveryModule],
  controllers: [WorkflowController],
  providers: [WorkflowRegistry, WorkflowService],
  exports: [WorkflowRegistry, WorkflowService],
})
export class WorkflowModule {}
