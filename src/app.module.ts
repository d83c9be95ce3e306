import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import { AuthModule } from './auth/auth.module';
import { CommonModule } from './common/common.module';
import { REDACTED_LOG_PATHS, redactRequestUrl } from './common/log-redaction';
import { Environment, validateEnvironment } from './config/environment';
import { DatabaseModule } from './database/database.module';
import { DemoModule } from './demo/demo.module';
import { EntityModule } from './entity/entity.module';
import { FetchModule } from './fetch/fetch.module';
import { HealthModule } from './health/health.module';

export interface AppOptions {
  /** The PostgreSQL to use: a server's URL or the embedded database's. */
  databaseUrl: string;
  /** Further feature modules, e.g. an application's own entity types in its tests. */
  modules?: DynamicModule['imports'];
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Echoes a sane incoming X-Request-Id, else makes one; logs and 500 bodies carry it. */
function requestId(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader('X-Request-Id', id);
  return id;
}

@Module({})
export class AppModule {
  static forRoot({ databaseUrl, modules = [] }: AppOptions): DynamicModule {
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
          useFactory: (config: ConfigService<Environment, true>) => ({
            pinoHttp: {
              level: config.get('LOG_LEVEL', { infer: true }),
              genReqId: requestId,
              redact: REDACTED_LOG_PATHS,
              serializers: { req: redactRequestUrl },
            },
          }),
        }),
        DatabaseModule.forRoot(databaseUrl),
        CommonModule,
        EntityModule,
        FetchModule,
        AuthModule,
        DemoModule,
        HealthModule,
        ...modules,
      ],
    };
  }
}
