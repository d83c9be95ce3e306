import { INestApplication } from '@nestjs/common';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import express, { NextFunction, Request, Response } from 'express';
import { Server } from 'node:http';
import { Environment } from '../config/environment';
import { CONSOLE_DIST, CONSOLE_PATH } from '../console/console.controller';
import {
  onClientError,
  parserRefusal,
  refuseEmptyJson,
  refuseUnroutablePath,
} from './framework-errors';
import { helmetHeaders, HttpPlatform, requestId, trustProxyOf } from './http-platform';

/** Express under Nest: the platform Nest and most of its ecosystem assume. */
export const expressPlatform: HttpPlatform = {
  // The parsers are registered by configure, in order, with their limits.
  appOptions: { bodyParser: false },

  createAdapter(env: Environment): ExpressAdapter {
    const instance = express();
    // As Fastify routes: paths are case-sensitive and `/auth/` is not `/auth`. Set before
    // anything creates Express's router, which reads them once.
    instance.set('case sensitive routing', true);
    instance.set('strict routing', true);
    instance.set('trust proxy', trustProxyOf(env.TRUST_PROXY));
    instance.set('x-powered-by', false);
    // ETags are the app's own (entity versions, file digests), and so is answering 304.
    instance.set('etag', false);
    return new ExpressAdapter(instance);
  },

  configure(app: INestApplication, env: Environment): void {
    const expressApp = app as NestExpressApplication;
    (app.getHttpServer() as Server)
      .removeAllListeners('clientError')
      .on('clientError', onClientError);
    const securityHeaders = new Map(Object.entries(helmetHeaders()));
    expressApp.use((request: Request, response: Response, next: NextFunction) => {
      response.setHeaders(securityHeaders);
      response.setHeader('X-Request-Id', requestId(request));
      next();
    });
    expressApp.use(refuseUnroutablePath);
    // Not strict: any JSON value is a body, as on Fastify; the routes say which they take.
    expressApp.useBodyParser('json', {
      limit: env.BODY_LIMIT,
      strict: false,
      verify: refuseEmptyJson,
    });
    expressApp.useBodyParser('urlencoded', { limit: env.BODY_LIMIT, extended: false });
    expressApp.useBodyParser('text', { limit: env.FETCH_MAX_QUERY_BYTES, type: 'text/plain' });
    // The parsers' refusals as the HttpExceptions Fastify's equivalents become.
    expressApp.use((error: unknown, _request: Request, _response: Response, next: NextFunction) =>
      next(parserRefusal(error) ?? error),
    );
    expressApp.useStaticAssets(CONSOLE_DIST, { prefix: CONSOLE_PATH });
  },
};
