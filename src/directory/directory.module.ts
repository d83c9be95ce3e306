import { Module } from '@nestjs/common';
import { ProviderDiscoveryModule } from '../common/provider-discovery';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { ChangesModule } from '../changes/changes.module';
import { ModelModule } from '../model/model.module';
import { BusinessUnitHooks } from './business-unit.hooks';
import { DIRECTORY_ENTITIES } from './entities';
import { FirstBootService } from './first-boot.service';
import { OrganizationRepository } from './organization.repository';
import { OrganizationService } from './organization.service';
import {
  RoleFieldPermissionHooks,
  RoleHooks,
  RolePrivilegeHooks,
  UserRoleHooks,
} from './role.hooks';
import { RoleRepository } from './role.repository';
import { UserRepository } from './user.repository';
import { UserService } from './user.service';

/** The directory's services and what they stand on: the CLI takes these without the hooks. */
export const DIRECTORY_SERVICES = [
  OrganizationService,
  OrganizationRepository,
  UserService,
  UserRepository,
  RoleRepository,
];

/**
 * Who is who: organizations, their business units, users, security roles and who holds
 * them; and on an empty database, the first organization.
 */
@Module({
  imports: [
    ProviderDiscoveryModule,
    TypeOrmModule.forFeature(DIRECTORY_ENTITIES),
    ModelModule,
    AccessModule,
    ChangesModule,
  ],
  providers: [
    ...DIRECTORY_SERVICES,
    FirstBootService,
    RoleHooks,
    UserRoleHooks,
    RolePrivilegeHooks,
    RoleFieldPermissionHooks,
    BusinessUnitHooks,
  ],
  exports: [OrganizationService, UserService, UserRepository],
})
export class DirectoryModule {}
