import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyService } from '../auth/api-key.service';
import { ACCESS_ENTITIES } from '../access/entities';
import { appEntities } from '../app.module';
import { AUTH_ENTITIES } from '../auth/entities';
import { OrganizationService } from '../auth/organization.service';
import { UserService } from '../auth/user.service';
import { validateEnvironment } from '../config/environment';
import { EntityRegistry } from '../entity/entity.registry';
import { buildDataSourceOptions } from '../database/data-source.options';
import { AdminCommandsService } from './admin-commands.service';

/**
 * A command uses one connection at a time; the second covers a lookup beside an open
 * transaction. A running server's embedded database keeps only a few spare connections.
 */
export const CLI_POOL_SIZE = 2;

/**
 * The services the admin commands need, without AuthModule: its BootstrapService would
 * seed organization `Demo` with a random admin password that a silent CLI never shows,
 * and its guard and passport strategies serve HTTP only.
 */
@Module({})
export class CliModule {
  static forRoot(databaseUrl: string): DynamicModule {
    return {
      module: CliModule,
      imports: [
        // cli.ts loads .env into the environment before anything reads it.
        ConfigModule.forRoot({
          isGlobal: true,
          validate: validateEnvironment,
          ignoreEnvFile: true,
        }),
        TypeOrmModule.forRoot({
          ...buildDataSourceOptions({ url: databaseUrl, poolSize: CLI_POOL_SIZE }),
          entities: appEntities(),
          // A command fails at once on an unreachable database; the server's default
          // of nine retries three seconds apart would look like a hang.
          retryAttempts: 0,
        }),
        TypeOrmModule.forFeature([...AUTH_ENTITIES, ...ACCESS_ENTITIES]),
      ],
      providers: [
        OrganizationService,
        UserService,
        ApiKeyService,
        AdminCommandsService,
        // A new organization's role member grants every secured property the types declare.
        EntityRegistry,
      ],
    };
  }
}
