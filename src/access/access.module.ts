import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessChanges } from './access.changes';
import { AccessController } from './access.controller';
import {
  BusinessUnitHooks,
  RoleFieldPermissionHooks,
  RoleHooks,
  RolePrivilegeHooks,
  UserRoleHooks,
} from './access.hooks';
import { AccessService } from './access.service';
import { ACCESS_ENTITIES } from './entities';

/** Security roles and the AccessScope every data path asks (global: the engine, FETCH, storage). */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature(ACCESS_ENTITIES)],
  controllers: [AccessController],
  providers: [
    AccessService,
    AccessChanges,
    RoleHooks,
    UserRoleHooks,
    RolePrivilegeHooks,
    RoleFieldPermissionHooks,
    BusinessUnitHooks,
  ],
  exports: [AccessService],
})
export class AccessModule {}
