import { INestApplication } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { parse as parseForm } from 'node:querystring';
import { Environment } from '../config/environment';
import { CONSOLE_DIST, CONSOLE_PATH } from './console-files';
import { onClientError, onFastifyRefusal } from './framework-errors';
import { bytesOf, helmetHeaders, HttpPlatform, requestId, trustProxyOf } from './http-platform';
import { parseJsonBody } from './json-body';

/**
 * Fastify under Nest: several times Express's requests per second on a bare route, and
 * 1.1–1.6 times on the app's routes (docs/decisions.md).
 */
export const fastifyPlatform: HttpPlatform = {
  // The parsers are registered by configure, as on Express.
  appOptions: { bodyParser: false },

  createAdapter(env: Environment): FastifyAdapter {
    return new FastifyAdapter({
      trustProxy: trustProxyOf(env.TRUST_PROXY),
      bodyLimit: bytesOf(env.BODY_LIMIT),
      genReqId: requestId,
      frameworkErrors: onFastifyRefusal,
      clientErrorHandler: onClientError,
    });
  },

  configure(app: INestApplication, env: Environment): void {
    const fastify = (app as NestFastifyApplication).getHttpAdapter().getInstance();
    // Hooks rather than Nest middleware, which on Fastify runs through middie.
    const securityHeaders = helmetHeaders();
    fastify.addHook('onRequest', (request, reply, done) => {
      reply.headers(securityHeaders);
      reply.header('X-Request-Id', request.id);
      done();
    });
    // JSON by the reader both platforms share; forms flat, by node:querystring as Nest's
    // adapter read them (both within Fastify's bodyLimit, BODY_LIMIT); FETCH text within
    // its own limit.
    fastify.removeContentTypeParser(['application/json', 'text/plain']);
    fastify.addContentTypeParser(
      'application/json',
      { parseAs: 'string' },
      (request, body, done) => {
        try {
          done(null, parseJsonBody(body as string, request.headers['content-type']));
        } catch (refusal) {
          done(refusal as Error, undefined);
        }
      },
    );
    fastify.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, parseForm(body as string)),
    );
    fastify.addContentTypeParser(
      'text/plain',
      { parseAs: 'string', bodyLimit: env.FETCH_MAX_QUERY_BYTES },
      (_request, body, done) => done(null, body),
    );
    // Left unread: the upload streams it through busboy (multipart-form.ts).
    fastify.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
    // The build's .br and .gz files, as the browser accepts them (Vary: Accept-Encoding).
    (app as NestFastifyApplication).useStaticAssets({
      root: CONSOLE_DIST,
      prefix: CONSOLE_PATH,
      preCompressed: true,
    });
  },

  async ready(app: INestApplication): Promise<void> {
    await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  },
};
