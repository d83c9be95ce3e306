import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import pino from 'pino';
import { AppModule } from './app.module';
import { configureApp, createHttpAdapter } from './app.setup';
import { validateEnvironment } from './config/environment';
import { EmbeddedPostgres } from './database/embedded-postgres';

/** Connections the embedded database accepts beyond the app's pool (the admin CLI). */
const EMBEDDED_SPARE_CONNECTIONS = 4;
/** A request that never ends must not keep the process from stopping. */
const SHUTDOWN_LIMIT_MS = 10_000;

async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const env = validateEnvironment(process.env);
  const log = pino({ level: env.LOG_LEVEL });
  let embedded: EmbeddedPostgres | undefined;
  try {
    embedded = env.DATABASE_URL
      ? undefined
      : await EmbeddedPostgres.start(env.DATA_DIR, {
          maxConnections: env.DATABASE_POOL_SIZE + EMBEDDED_SPARE_CONNECTIONS,
          onNotice: (message) => log.warn(message),
        });
  } catch (error) {
    // DATA_DIR in use, a PGlite database, unreachable: the message says what to do.
    log.fatal(`The embedded database did not start: ${(error as Error).message}`);
    process.exit(1);
  }

  let app: NestFastifyApplication | undefined;
  const stop = async (exitCode: number) => {
    setTimeout(() => process.exit(1), SHUTDOWN_LIMIT_MS).unref();
    try {
      await app?.close();
    } finally {
      await embedded?.stop();
      process.exit(exitCode);
    }
  };
  // Drain requests, close the pool, then stop the embedded database cleanly.
  process.once('SIGTERM', () => void stop(0));
  process.once('SIGINT', () => void stop(0));

  try {
    app = await NestFactory.create<NestFastifyApplication>(
      AppModule.forRoot({ databaseUrl: env.DATABASE_URL ?? embedded!.url }),
      createHttpAdapter(env),
      { bufferLogs: true },
    );
    await configureApp(app, env);
    await app.listen(env.PORT, env.HOST);
    const where = embedded ? `embedded PostgreSQL in ${env.DATA_DIR}` : 'PostgreSQL server';
    app.get(Logger).log(`Atrium listening on http://${env.HOST}:${env.PORT} (${where})`);
  } catch (error) {
    console.error(error);
    await stop(1);
  }
}

void main();
