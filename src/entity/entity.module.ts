import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { ChangesModule } from '../changes/changes.module';
import { ModelModule } from '../model/model.module';
import { EntityController } from './entity.controller';
import { EntityHistoryService } from './entity-history.service';
import { EntityService } from './entity.service';
import { EntityStore } from './entity.store';
import { EntityWriter } from './entity.writer';
import { HookRegistry } from './hook-registry';
import { HookRunner } from './hook-runner';

/**
 * The entity engine: /rest/entity, and the writes of records with their child groups and
 * hooks. The data layer registers the hooks and hands the engine to application code.
 */
@Module({
  imports: [ModelModule, AccessModule, ChangesModule],
  controllers: [EntityController],
  providers: [
    EntityService,
    EntityHistoryService,
    EntityStore,
    EntityWriter,
    HookRunner,
    HookRegistry,
  ],
  exports: [EntityService, HookRegistry],
})
export class EntityModule {}
