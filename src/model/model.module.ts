import { Module } from '@nestjs/common';
import { EntityRegistry } from './entity.registry';

/** The entity model: every entity type of the API, built once at boot. */
@Module({
  providers: [EntityRegistry],
  exports: [EntityRegistry],
})
export class ModelModule {}
