import { Module } from '@nestjs/common';
import { ProviderDiscoveryModule } from '../common/provider-discovery';
import { AccessModule } from '../access/access.module';
import { ChangesModule } from '../changes/changes.module';
import { DirectoryModule } from '../directory/directory.module';
import { ModelModule } from '../model/model.module';
import { EventDispatchRepository } from './event-dispatch.repository';
import { EventDispatcher } from './event-dispatcher.service';
import { EventHandlerRepository } from './event-handler.repository';
import { EventHandlers } from './event-handlers.service';
import { JobIdentities } from './job-identities.service';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

/**
 * After-commit events and jobs: subscribers (`@OnEntityEvent`) fed from the change log,
 * `@Job` handlers and their schedules, on the job queue; administrators' view of failed jobs.
 */
@Module({
  imports: [ProviderDiscoveryModule, AccessModule, ChangesModule, DirectoryModule, ModelModule],
  controllers: [JobsController],
  providers: [
    EventDispatcher,
    EventDispatchRepository,
    EventHandlerRepository,
    EventHandlers,
    JobIdentities,
    JobsService,
  ],
  exports: [EventHandlers, JobIdentities],
})
export class EventsModule {}
