import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import { startTime } from 'pino-http';
import { AuthModule } from './auth/auth.module';
import { transportFor } from './logging/boot-logger';
import {
  REDACTED_LOG_PATHS,
  redactRequestUrl,
  requestLine,
  serializeError,
} from './logging/log-redaction';
import { Environment, validateEnvironment } from './config/environment';
import { DatabaseModule, MigrationClass } from './database/database.module';
import { entityClasses } from './database/entity-classes';
import { DataModule } from './data/data.module';
import { DemoModule } from './demo/demo.module';
import { DirectoryModule } from './directory/directory.module';
import { EntityModule } from './entity/entity.module';
import { EventsModule } from './events/events.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { FetchModule } from './fetch/fetch.module';
import { ConsoleModule } from './console/console.module';
import { HealthModule } from './health/health.module';
import { MetadataModule } from './metadata/metadata.module';
import { QueueModule } from './queue/queue.module';
import { StorageModule } from './storage/storage.module';
import { WorkflowModule } from './workflow/workflow.module';

export interface AppOptions {
  /** The PostgreSQL to use: a server's URL or the embedded database's. */
  databaseUrl: string;
  /** Further feature modules, e.g. an application's own entity types in its tests. */
  modules?: DynamicModule['imports'];
  /** Their migrations, run after the app's own (the example module's of docs/, in tests). */
  migrations?: MigrationClass[];
}

/** The levels at which a line of each level is written. */
const WRITTEN_AT: Record<string, readonly string[]> = {
  info: ['info', 'debug', 'trace'],
  debug: ['debug', 'trace'],
};

/** The id the platform gave the request (src/http/), which pino-http's middleware sees. */
function requestIdOf(request: IncomingMessage): string {
  return (request as IncomingMessage & { id?: string }).id ?? randomUUID();
}

/**
 * The entity classes of the app: those of every module imported above (and of modules
 * given to forRoot, which load before it runs). The CLI and the migration tool take the
 * list from here, so an entity is in all three once its module is in the app.
 */
export function appEntities(): ReturnType<typeof entityClasses> {
  return entityClasses();
}

@Module({})
export class AppModule {
  static forRoot({ databaseUrl, modules = [], migrations = [] }: AppOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // main.ts loads .env into the environment before anything reads it.
        ConfigModule.forRoot({
          isGlobal: true,
          validate: validateEnvironment,
          ignoreEnvFile: true,
        }),
        LoggerModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<Environment, true>) => {
            const level = config.get('LOG_LEVEL', { infer: true });
            const format = config.get('LOG_FORMAT', { infer: true });
            // A line per request: at info in JSON, for log collectors; at a terminal, at
            // debug, so that a person's screen shows what the server says, not each request.
            const requestLevel = format === 'json' ? 'info' : 'debug';
            return {
              pinoHttp: {
                level,
                transport: transportFor(format),
                genReqId: requestIdOf,
                redact: REDACTED_LOG_PATHS,
                serializers: { req: redactRequestUrl, err: serializeError },
                useLevel: requestLevel,
                customSuccessMessage: requestLine,
                customErrorMessage: (request, response) =>
                  requestLine(request, response, Date.now() - response[startTime]),
              },
              // Not written at this level: pino-http would still make (serialise and
              // redact) a logger per request that never writes a line.
              ...(WRITTEN_AT[requestLevel].includes(level) ? {} : { forRoutes: [] }),
            };
          },
        }),
        DatabaseModule.forRoot(databaseUrl, migrations),
        QueueModule,
        EntityModule,
        FetchModule,
        DataModule,
        DirectoryModule,
        AuthModule,
        DemoModule,
        HealthModule,
        ConsoleModule,
        WorkflowModule,
        StorageModule,
        EventsModule,
        WebhooksModule,
        MetadataModule,
        ...modules,
      ],
    };
  }
}
