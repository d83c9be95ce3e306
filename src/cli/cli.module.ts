import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { appEntities } from '../app.module';
import { ApiKeyRepository } from '../auth/api-key.repository';
import { ApiKeyService } from '../auth/api-key.service';
import { ChangeLogRepository } from '../changes/change-log.repository';
import { ChangeLog } from '../changes/change-log.service';
import { validateEnvironment } from '../config/environment';
import { DatabaseModule } from '../database/database.module';
import { DIRECTORY_SERVICES } from '../directory/directory.module';
import { ModelModule } from '../model/model.module';
import { AdminCommandsService } from './admin-commands.service';

/**
 * A command uses one connection at a time; the second covers a lookup beside an open
 * transaction. A running server's embedded database keeps only a few spare connections.
 */
export const CLI_POOL_SIZE = 2;

/**
 * The services the admin commands need, not the modules that hold them: the directory's
 * module would seed organization `Demo` with a random admin password that a silent CLI
 * never shows, the access module listen for changes on a connection of its own, and the
 * auth module's guard and passport strategies serve HTTP only.
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
        DatabaseModule.forCommands(databaseUrl, CLI_POOL_SIZE, appEntities()),
        // A new organization's role member grants every secured property the types declare.
        ModelModule,
      ],
      providers: [
        ...DIRECTORY_SERVICES,
        // What a command writes goes to the change log, as the server's writes do.
        ChangeLog,
        ChangeLogRepository,
        ApiKeyService,
        ApiKeyRepository,
        AdminCommandsService,
      ],
    };
  }
}
