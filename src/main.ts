import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { INestApplication } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { createApp } from './app.setup';
import { limitHeapGrowth, limitNewSpace } from './http/heap-growth';
import { BootLogger, bootLog, plainMessage } from './logging/boot-logger';
import { Environment, validateEnvironment } from './config/environment';
import { EmbeddedPostgres } from './database/embedded-postgres';
import { FirstBootService } from './directory/first-boot.service';
import { firstStartSummary } from './directory/first-start-summary';

/**
 * Connections the embedded database accepts beyond the app's pool and the job queue's (and
 * its LISTEN): the access listener, the admin CLI.
 */
const EMBEDDED_SPARE_CONNECTIONS = 5;
/** A request that never ends must not keep the process, or its database, from stopping. */
const SHUTDOWN_LIMIT_MS = 10_000;

async function main(): Promise<void> {
  limitHeapGrowth();
  limitNewSpace();
  if (existsSync('.env')) process.loadEnvFile('.env');
  // Nest's logger comes with the app; the configuration and the database come before it.
  // A failed start is one fatal line saying why, and exit code 1: no stack dump.
  const log = bootLog(process.env);
  let env: Environment;
  try {
    env = validateEnvironment(process.env);
  } catch (error) {
    log.fatal(plainMessage(error));
    process.exit(1);
  }
  let app: INestApplication | undefined;
  let embedded: Promise<EmbeddedPostgres | undefined> = Promise.resolve(undefined);

  // Drain requests and close the pool, then stop the embedded database cleanly, also
  // when a request does not end or the signal comes while the database is starting.
  const stop = async (exitCode: number) => {
    await Promise.race([app?.close(), sleep(SHUTDOWN_LIMIT_MS)]).catch((error: Error) =>
      log.error(`Closing the app failed: ${error.message}`),
    );
    const database = await embedded.catch(() => undefined);
    await database?.stop().catch((error: Error) => {
      log.error(`The embedded database did not stop cleanly: ${error.message}`);
      exitCode = 1;
    });
    process.exit(exitCode);
  };
  process.once('SIGTERM', () => void stop(0));
  process.once('SIGINT', () => void stop(0));

  if (!env.DATABASE_URL) {
    embedded = EmbeddedPostgres.start(env.DATA_DIR, {
      maxConnections: env.DATABASE_POOL_SIZE + env.JOBS_POOL_SIZE + EMBEDDED_SPARE_CONNECTIONS,
      onNotice: (message) => log.info(message),
    });
  }
  let databaseUrl: string;
  try {
    databaseUrl = env.DATABASE_URL ?? (await embedded)!.url;
  } catch (error) {
    // DATA_DIR in use, a PGlite database, unreachable: the message says what to do.
    log.fatal(`The embedded database did not start: ${(error as Error).message}`);
    process.exit(1);
  }

  try {
    app = await createApp(AppModule.forRoot({ databaseUrl }), env, {
      // Errors reach the catch below instead of Nest's own exit with a stack trace.
      bufferLogs: true,
      abortOnError: false,
      logger: new BootLogger(log),
    });
    await app.listen(env.PORT, env.HOST);
    const where = env.DATABASE_URL ? 'PostgreSQL server' : `embedded PostgreSQL in ${env.DATA_DIR}`;
    const logger = app.get(Logger);
    logger.log(
      `Atrium listening on http://${env.HOST}:${env.PORT} (${where}, ${env.HTTP_PLATFORM})`,
    );
    const { firstStart } = app.get(FirstBootService);
    if (firstStart) {
      const url = env.PUBLIC_URL ?? (await app.getUrl());
      logger.log(firstStartSummary({ ...firstStart, url, cwd: process.cwd() }));
    }
  } catch (error) {
    log.fatal(`Atrium did not start: ${plainMessage(error)}`);
    await stop(1);
  }
}

void main();
