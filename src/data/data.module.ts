import { Global, Module } from '@nestjs/common';
import { ProviderDiscoveryModule } from '../common/provider-discovery';
import { AccessModule } from '../access/access.module';
import { EntityModule } from '../entity/entity.module';
import { FetchModule } from '../fetch/fetch.module';
import { DataService } from './data.service';
import { EntityHooksExplorer } from './entity-hooks';

/**
 * What application code reads and writes with: the scoped data API, handed to hooks and
 * workflows, and DataService for a provider that runs work of its own as a user. Global,
 * with the engine's and FETCH's services: an application's providers inject them with
 * no module to import (src/atrium.ts is their one import).
 */
@Global()
@Module({
  imports: [ProviderDiscoveryModule, AccessModule, EntityModule, FetchModule],
  providers: [DataService, EntityHooksExplorer],
  exports: [DataService, EntityModule, FetchModule],
})
export class DataModule {}
