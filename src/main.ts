import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { INestApplication } from '@nestjs/common';
import { Logger, PinoLogger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { createApp } from './app.setup';
import { runtimeProblem } from './common/runtime';
import { limitHeapGrowth, limitNewSpace } from './http/heap-growth';
import { RequestsInFlight } from './http/requests-in-flight';
import { BootLogger, bootLog, plainMessage, writePlainLines } from './logging/boot-logger';
import { stoppedLine, stoppingLine } from './logging/shutdown-lines';
import { Environment, validateEnvironment } from './config/environment';
import { EmbeddedPostgres } from './database/embedded-postgres';
import { FirstBootService } from './directory/first-boot.service';
import { startBanner } from './directory/start-banner';
import { JobQueue } from './queue/job-queue.service';

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
  const runtime = runtimeProblem();
  if (runtime) {
    log.fatal(runtime);
    process.exit(1);
  }
  let env: Environment;
  try {
    env = validateEnvironment(process.env);
  } catch (error) {
    log.fatal(plainMessage(error));
    process.exit(1);
  }
  let app: INestApplication | undefined;
  let requests: RequestsInFlight | undefined;
  let embedded: Promise<EmbeddedPostgres | undefined> = Promise.resolve(undefined);

  // Drain requests and jobs and close the pool, then stop the embedded database cleanly,
  // also when a request does not end or the signal comes while the database is starting.
  const stop = async (exitCode: number, signal?: NodeJS.Signals) => {
    const started = Date.now();
    const underWay = { requests: requests?.count ?? 0, jobs: jobsUnderWay(app) };
    requests?.drain();
    if (signal) log.info(stoppingLine(signal, underWay));
    await Promise.race([app?.close(), sleep(SHUTDOWN_LIMIT_MS)]).catch((error: Error) =>
      log.error(`Closing the app failed: ${error.message}`),
    );
    const cutOff = requests?.count ?? 0;
    const database = await embedded.catch(() => undefined);
    const databaseStopped = await database?.stop().then(
      () => true,
      (error: Error) => {
        log.error(`The embedded database did not stop cleanly: ${error.message}`);
        exitCode = 1;
        return false;
      },
    );
    if (signal) {
      const finished = { ...underWay, requests: underWay.requests - cutOff };
      const limitSeconds = SHUTDOWN_LIMIT_MS / 1000;
      const ms = Date.now() - started;
      log.info(
        stoppedLine({ ms, finished, cutOff, limitSeconds, databaseStopped: !!databaseStopped }),
      );
    }
    // pino-pretty writes from a thread of its own, which exit would end mid-line.
    await new Promise((flushed) => log.flush(flushed));
    process.exit(exitCode);
  };
  process.once('SIGTERM', () => void stop(0, 'SIGTERM'));
  process.once('SIGINT', () => void stop(0, 'SIGINT'));

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
    requests = new RequestsInFlight(app.getHttpServer() as Server);
    await app.listen(env.PORT, env.HOST);
    const where = env.DATABASE_URL ? 'PostgreSQL server' : `embedded PostgreSQL in ${env.DATA_DIR}`;
    const logger = app.get(Logger);
    logger.log(
      `Atrium listening on http://${env.HOST}:${env.PORT} (${where}, ${env.HTTP_PLATFORM})`,
    );
    const firstBoot = app.get(FirstBootService);
    const banner = startBanner({
      url: env.PUBLIC_URL ?? (await app.getUrl()),
      cwd: process.cwd(),
      adminPasswordFile: firstBoot.adminPasswordFile(),
      adminPasswordSet: firstBoot.firstStart?.adminPasswordSet,
    });
    // For people, on any stdout: as a JSON line it would be one string full of "\n"s.
    if (env.LOG_FORMAT === 'pretty') {
      logger.log(banner.join('\n'));
    } else {
      // The pino that wrote the lines above (outside a request: the app's logger's own).
      writePlainLines((await app.resolve(PinoLogger)).logger, banner);
    }
  } catch (error) {
    log.fatal(`Atrium did not start: ${plainMessage(error)}`);
    await stop(1);
  }
}

function jobsUnderWay(app: INestApplication | undefined): number {
  return app?.get(JobQueue).jobsUnderWay() ?? 0;
}

void main();
