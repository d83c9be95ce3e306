import multipart from '@fastify/multipart';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from 'nestjs-pino';
import { version } from '../package.json';
import { API_KEY_HEADER, API_KEY_QUERY } from './auth/strategies/api-key.strategy';
import { AUTH_TOKEN_COOKIE, CSRF_HEADER } from './auth/session-cookies';
import { onClientError, onFrameworkError } from './common/framework-errors';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { openRequestContext } from './common/request-context';
import { RequestValidationPipe } from './common/validation';
import { ApiDocument } from './metadata/api-document';
import { BYTE_SIZE, Environment } from './config/environment';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Nest on Fastify rather than Express: measured on this machine, a bare Nest route
 * answers ~4.5 times as many requests per second on Fastify (README, "Decisions").
 * `TRUST_PROXY` is Fastify's `trustProxy`: X-Forwarded-For / -Proto count only with it.
 */
export function createHttpAdapter(env: Environment): FastifyAdapter {
  return new FastifyAdapter({
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    bodyLimit: bytesOf(env.BODY_LIMIT),
    genReqId: requestId,
    // HEAD /auth?logout=1 is a route of its own, not GET /auth without a body.
    exposeHeadRoutes: false,
    frameworkErrors: onFrameworkError,
    clientErrorHandler: onClientError,
  });
}

/**
 * Everything main.ts and the e2e tests both apply to the app, so the tests exercise
 * the server as it runs.
 */
export async function configureApp(app: NestFastifyApplication, env: Environment): Promise<void> {
  app.useLogger(app.get(Logger));
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', openRequestContext);
  const securityHeaders = helmetHeaders();
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeaders);
    reply.header('X-Request-Id', request.id);
    done();
  });
  // FETCH text as a string within its own limit (JSON and forms: Nest's parsers, within
  // Fastify's bodyLimit, BODY_LIMIT).
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser(
    'text/plain',
    { parseAs: 'string', bodyLimit: env.FETCH_MAX_QUERY_BYTES },
    (_request, body, done) => done(null, body),
  );
  // Uploads stream (never held whole); a file over the limit fails its stream with a 413.
  await app.register(multipart, {
    limits: { fileSize: env.MAX_UPLOAD_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
  });
  app.useGlobalPipes(new RequestValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  setUpOpenApi(app);
}

/**
 * helmet's headers, taken once at boot: with its defaults they depend on nothing in the
 * request. Per request, @fastify/helmet built a new helmet and then set each header on
 * the raw response, a sixth of a small request's cost (README, "Decisions").
 */
function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => (headers[name] = value),
    removeHeader: (name: string) => delete headers[name],
  };
  helmet()({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
  });
  return headers;
}

/** Echoes a sane incoming X-Request-Id, else makes one; logs and 500 bodies carry it. */
function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  // pino-http's middleware sees the raw request: it reads the same id from it.
  (request as IncomingMessage & { id?: string }).id = id;
  return id;
}

const BYTES_PER_UNIT: Record<string, number> = { b: 1, kb: 1024, mb: 1024 * 1024 };

/** BODY_LIMIT in bytes (its format checked by the environment). */
function bytesOf(limit: string): number {
  const [, amount, unit] = BYTE_SIZE.exec(limit)!;
  return Math.floor(Number(amount) * BYTES_PER_UNIT[unit.toLowerCase()]);
}

function setUpOpenApi(app: NestFastifyApplication): void {
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

function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  return value === 'true' ? true : value;
}
