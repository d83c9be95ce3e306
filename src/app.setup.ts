import { DynamicModule, INestApplication, NestApplicationOptions } from '@nestjs/common';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { version } from '../package.json';
import { API_KEY_HEADER, API_KEY_QUERY } from './auth/strategies/api-key.strategy';
import { AUTH_TOKEN_COOKIE, CSRF_HEADER } from './auth/session-cookies';
import { HttpExceptionFilter } from './http/http-exception.filter';
import { RequestValidationPipe } from './http/validation.pipe';
import { Environment, HttpPlatformName } from './config/environment';
import { expressPlatform } from './http/express.platform';
import { fastifyPlatform } from './http/fastify.platform';
import { HttpPlatform } from './http/http-platform';
import { ApiDocument } from './metadata/api-document';
import { WiringAtDebugLogger } from './logging/nest-wiring';

const PLATFORMS: Record<HttpPlatformName, HttpPlatform> = {
  express: expressPlatform,
  fastify: fastifyPlatform,
};

/**
 * The app on HTTP_PLATFORM, configured as main.ts runs it; the e2e tests build theirs
 * here too, so they exercise the server as it runs. Not yet listening or initialised.
 */
export async function createApp(
  module: DynamicModule,
  env: Environment,
  options: NestApplicationOptions,
): Promise<INestApplication> {
  const platform = PLATFORMS[env.HTTP_PLATFORM];
  const app = await NestFactory.create(module, platform.createAdapter(env), {
    ...options,
    ...platform.appOptions,
  });
  app.useLogger(new WiringAtDebugLogger(app.get(Logger)));
  platform.configure(app, env);
  app.useGlobalPipes(new RequestValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter(app.get(HttpAdapterHost).httpAdapter));
  setUpOpenApi(app);
  return app;
}

/**
 * Initialises an app that will not `listen` (tests hand its server to supertest): Fastify
 * routes only once it is ready, which `listen` would otherwise wait for.
 */
export async function initApp(app: INestApplication): Promise<void> {
  await app.init();
  await PLATFORMS[app.getHttpAdapter().getType() as HttpPlatformName].ready?.(app);
}

function setUpOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Atrium')
    .setDescription('Sessions, entities, FETCH queries, workflows and files')
    .setVersion(version)
    .addApiKey({ type: 'apiKey', in: 'header', name: API_KEY_HEADER }, 'apiKeyHeader')
    .addApiKey({ type: 'apiKey', in: 'query', name: API_KEY_QUERY }, 'apiKeyQuery')
    .addCookieAuth(
      AUTH_TOKEN_COOKIE,
      { type: 'apiKey', in: 'cookie', name: AUTH_TOKEN_COOKIE },
      'session',
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: CSRF_HEADER,
        description: 'Required on cookie-authenticated writes',
      },
      'csrf',
    )
    .addSecurityRequirements('apiKeyHeader')
    .addSecurityRequirements('apiKeyQuery')
    .addSecurityRequirements({ session: [], csrf: [] })
    .build();
  SwaggerModule.setup('docs', app, () =>
    app.get(ApiDocument).extend(SwaggerModule.createDocument(app, config)),
  );
}
