import { INestApplication, NestApplicationOptions, StreamableFile } from '@nestjs/common';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { Environment } from '../config/environment';
import { CONSOLE_DIST, CONSOLE_PATH } from './console-files';
import { onClientError, parserRefusal, refuseUnroutablePath } from './framework-errors';
import { helmetHeaders, HttpPlatform, requestId, trustProxyOf } from './http-platform';
import { parseJsonBody } from './json-body';
import expressStaticGzip from 'express-static-gzip';

/**
 * Nest's Express adapter, with two shortcuts on the way of every request (docs/decisions.md,
 * "Performance at scale", has what they saved):
 *
 * - Node makes each request and response as an instance of a subclass whose prototype
 *   stands in for Express's (app.request, app.response). Relies on Express's handler
 *   swapping the prototype of each one (`Object.setPrototypeOf(req, app.request)`) for
 *   those two objects, so the swap changes nothing (express.platform.spec.ts fails when
 *   it reads them elsewhere), and on Node's `createServer` options IncomingMessage and
 *   ServerResponse. A swapped prototype is what V8's property caches miss on.
 * - The usual answer, a JSON object with a body, is serialised and ended with its two
 *   headers, where Express's `res.json` and `res.send` would also parse and rebuild the
 *   Content-Type, copy the text into a Buffer and check the request's freshness. The
 *   answer is the same but for that check: Express answered 304 to an If-None-Match that
 *   matched the app's ETag, which Fastify never did; now neither does. Anything else takes
 *   Nest's way.
 */
class ExpressPlatformAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // Over TLS, or with Nest tracking the connections, Nest makes the server as before.
    if (options.httpsOptions || options.forceCloseConnections) {
      return super.initHttpServer(options);
    }
    const app = this.getInstance<express.Express>();
    const Request = subclassFor(IncomingMessage, app.request);
    const Reply = subclassFor(ServerResponse, app.response);
    app.request = Request.prototype as express.Request;
    app.response = Reply.prototype as express.Response;
    this.httpServer = createServer({ IncomingMessage: Request, ServerResponse: Reply }, app);
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!isJsonObject(body) || !hasBody(response, statusCode)) {
      return super.reply(response, body, statusCode);
    }
    if (statusCode) response.statusCode = statusCode;
    const text = JSON.stringify(body);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(text));
    return response.end(text);
  }
}

/**
 * A subclass of Node's `base` whose prototype holds what Express's (`expressPrototype`,
 * app.request or app.response) holds, `app` included, and inherits what it inherits: the
 * app then uses it in Express's place. (A plain function as new.target would do the same
 * without the swap, but V8 gives each object it makes a new map.)
 */
function subclassFor<T extends typeof IncomingMessage | typeof ServerResponse>(
  base: T,
  expressPrototype: object,
): T {
  const subclass = class extends (base as typeof IncomingMessage) {};
  Object.setPrototypeOf(subclass.prototype, Object.getPrototypeOf(expressPrototype) as object);
  Object.defineProperties(subclass.prototype, Object.getOwnPropertyDescriptors(expressPrototype));
  return subclass as unknown as T;
}

function isJsonObject(body: unknown): body is object {
  return (
    typeof body === 'object' &&
    body !== null &&
    !(body instanceof StreamableFile) &&
    !ArrayBuffer.isView(body)
  );
}

/**
 * Not a status without a body, and no Content-Type a route chose. (To a HEAD, Node sends
 * the headers and leaves the body out.)
 */
function hasBody(response: Response, statusCode?: number): boolean {
  const status = statusCode ?? response.statusCode;
  return status !== 204 && status !== 205 && status !== 304 && !response.hasHeader('Content-Type');
}

/**
 * Middleware run one after the other as one: the first error goes to Express, the
 * parsers' refusals as the HttpExceptions Fastify's equivalents become.
 */
function inTurn(...steps: RequestHandler[]): RequestHandler {
  return (request, response, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) return next(parserRefusal(error) ?? error);
      const current = steps[index++];
      if (!current) return next();
      // As the router runs a layer: a throw, or a rejected promise, is the step's error.
      try {
        const result: unknown = current(request, response, step);
        if (result instanceof Promise) result.catch(step);
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
}

/**
 * JSON read as text within BODY_LIMIT, then parsed by the reader both platforms share
 * (express.json cannot bound depth or refuse prototype poisoning). Any JSON value is a
 * body, as on Fastify; the routes say which they take.
 */
function jsonBody(limit: string): RequestHandler {
  const read = express.text({ type: 'application/json', limit });
  return (request, response, next) =>
    read(request, response, (error?: unknown) => {
      if (error || typeof request.body !== 'string') return next(error);
      try {
        request.body = parseJsonBody(request.body, request.headers['content-type']);
      } catch (refusal) {
        return next(refusal);
      }
      next();
    });
}

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
    return new ExpressPlatformAdapter(instance);
  },

  configure(app: INestApplication, env: Environment): void {
    const expressApp = app as NestExpressApplication;
    (app.getHttpServer() as Server)
      .removeAllListeners('clientError')
      .on('clientError', onClientError);
    const securityHeaders = new Map(Object.entries(helmetHeaders()));
    const setHeaders = (request: Request, response: Response, next: NextFunction) => {
      response.setHeaders(securityHeaders);
      response.setHeader('X-Request-Id', requestId(request));
      next();
    };
    // One middleware, not five: Express's router costs each request a few microseconds
    // for every layer it enters, more than these steps themselves when there is no body.
    expressApp.use(
      inTurn(
        setHeaders,
        refuseUnroutablePath,
        jsonBody(env.BODY_LIMIT),
        express.urlencoded({ limit: env.BODY_LIMIT, extended: false }),
        express.text({ limit: env.FETCH_MAX_QUERY_BYTES, type: 'text/plain' }),
      ),
    );
    // The build's .br and .gz files, as the browser accepts them (Vary: Accept-Encoding).
    expressApp.use(
      CONSOLE_PATH,
      expressStaticGzip(CONSOLE_DIST, { enableBrotli: true, orderPreference: ['br', 'gz'] }),
    );
  },
};
