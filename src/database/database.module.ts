import { DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MigrationInterface } from 'typeorm';
import { Environment } from '../config/environment';
import { buildDataSourceOptions } from './data-source.options';
import { MIGRATIONS } from './migrations';
import { isConnectionFailure, TypeOrmLogger } from './typeorm-logger';

export type MigrationClass = new () => MigrationInterface;

/**
 * TypeORM on the given URL: a PostgreSQL server, or the embedded one that main.ts (or
 * the test setup) started. The app does not know which.
 */
@Module({})
export class DatabaseModule {
  static forRoot(databaseUrl: string, migrations: MigrationClass[] = []): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<Environment, true>) => ({
            ...buildDataSourceOptions({
              url: databaseUrl,
              poolSize: config.get('DATABASE_POOL_SIZE', { infer: true }),
              statementTimeoutMs: config.get('STATEMENT_TIMEOUT_MS', { infer: true }),
            }),
            // The modules' forFeature entities: the list appEntities() gives the CLI and
            // the migration tool.
            autoLoadEntities: true,
            migrations: [...MIGRATIONS, ...migrations],
            logger: new TypeOrmLogger(),
            // A failing migration fails the start at once; a database not there yet is
            // tried again (nine times, three seconds apart).
            toRetry: isConnectionFailure,
          }),
        }),
      ],
    };
  }
}
