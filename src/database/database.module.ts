import { DynamicModule, Module, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MigrationInterface } from 'typeorm';
import { Environment } from '../config/environment';
import { buildDataSourceOptions } from './data-source.options';
import { EntityClass } from './entity-classes';
import { MIGRATIONS } from './migrations';
import { OrmMetadata } from './orm-metadata.service';
import { isConnectionFailure } from './postgres-errors';
import { PostgresListener } from './postgres-listener';
import { ServerSecretRepository } from './server-secret.repository';
import { ServerSecrets } from './server-secrets.service';
import { Sql } from './sql.service';
import { Transactions } from './transactions.service';
import { TypeOrmLogger } from './typeorm-logger';

export type MigrationClass = new () => MigrationInterface;

/** The URL of the database the app runs on, for the one other client of it (the job queue). */
export const DATABASE_URL = 'atrium:database-url';

/** What every feature module reaches the database through, besides its repositories. */
const SERVICES: Provider[] = [
  Sql,
  Transactions,
  ServerSecrets,
  ServerSecretRepository,
  OrmMetadata,
  PostgresListener,
];

/**
 * TypeORM on the given URL: a PostgreSQL server, or the embedded one that main.ts (or
 * the test setup) started. The app does not know which. Global, as TypeORM's own module
 * is: every feature module reaches the database.
 */
@Module({})
export class DatabaseModule {
  /** The server's: its pool and statement timeout, the modules' entities, its migrations. */
  static forRoot(databaseUrl: string, migrations: MigrationClass[] = []): DynamicModule {
    return DatabaseModule.on(
      databaseUrl,
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
    );
  }

  /** A command's: `poolSize` connections, the app's entities, no statement timeout. */
  static forCommands(
    databaseUrl: string,
    poolSize: number,
    entities: EntityClass[],
  ): DynamicModule {
    return DatabaseModule.on(
      databaseUrl,
      TypeOrmModule.forRoot({
        ...buildDataSourceOptions({ url: databaseUrl, poolSize }),
        entities,
        // A command fails at once on an unreachable database; the server's default
        // of nine retries three seconds apart would look like a hang.
        retryAttempts: 0,
      }),
    );
  }

  private static on(databaseUrl: string, typeOrm: DynamicModule): DynamicModule {
    const url: Provider = { provide: DATABASE_URL, useValue: databaseUrl };
    return {
      module: DatabaseModule,
      global: true,
      imports: [typeOrm],
      providers: [...SERVICES, url],
      exports: [...SERVICES, url],
    };
  }
}
