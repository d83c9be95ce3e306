import { Module } from '@nestjs/common';
import { ProviderDiscoveryModule } from '../common/provider-discovery';
import { AccessModule } from '../access/access.module';
import { DataModule } from '../data/data.module';
import { HttpModule } from '../http/http.module';
import { ModelModule } from '../model/model.module';
import { WorkflowController } from './workflow.controller';
import { WorkflowRegistry } from './workflow.registry';
import { WorkflowService } from './workflow.service';

/** Workflows written as Nest providers (@Workflow / @WorkflowMethod), found at boot. */
@Module({
  imports: [ProviderDiscoveryModule, HttpModule, ModelModule, AccessModule, DataModule],
  controllers: [WorkflowController],
  providers: [WorkflowRegistry, WorkflowService],
  exports: [WorkflowService],
})
export class WorkflowModule {}
