import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { version } from '../package.json';
import { API_KEY_HEADER, API_KEY_QUERY } from './auth/strategies/api-key.strategy';
import { AUTH_TOKEN_COOKIE, CSRF_HEADER } from './auth/session-cookies';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { VALIDATION_OPTIONS } from './common/validation';
import { ValidationPipe } from '@nestjs/common';
import { Environment } from './config/environment';

/**
 * Everything main.ts and the e2e tests both apply to the app, so the tests exercise
 * the server as it runs. The app must be created with `bodyParser: false`.
 */
export function configureApp(app: NestExpressApplication, env: Environment): void {
  app.useLogger(app.get(Logger));
  if (env.TRUST_PROXY) app.set('trust proxy', parseTrustProxy(env.TRUST_PROXY));
  app.use(helmet());
  app.useBodyParser('json', { limit: env.BODY_LIMIT });
  app.useBodyParser('urlencoded', { limit: env.BODY_LIMIT, extended: false });
  // FETCH queries (POST /rest/fetch…); a longer body is 413 before anything reads it.
  app.useBodyParser('text', { type: 'text/plain', limit: env.FETCH_MAX_QUERY_BYTES });
  app.useGlobalPipes(new ValidationPipe(VALIDATION_OPTIONS));
  app.useGlobalFilters(new HttpExceptionFilter());
  setUpOpenApi(app);
}

function setUpOpenApi(app: NestExpressApplication): void {
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
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, config));
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
