import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EntityController } from './entity.controller';
import { EntityHooksRegistry } from './entity-hooks';
import { EntityRegistry } from './entity.registry';
import { EntityService } from './entity.service';
import { EntityStore } from './entity.store';
import { EntityWriter } from './entity.writer';
import { HookRunner } from './hook-runner';

/** The entity engine; global so feature modules' hooks and workflows can use it. */
@Global()
@Module({
  imports: [DiscoveryModule],
  controllers: [EntityController],
  providers: [
    EntityRegistry,
    EntityHooksRegistry,
    EntityService,
    EntityStore,
    EntityWriter,
    HookRunner,
  ],
  exports: [EntityRegistry, EntityService, EntityStore],
})
export class EntityModule {}
