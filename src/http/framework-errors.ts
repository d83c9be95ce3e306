import {
  BadRequestException,
  HttpException,
  HttpStatus,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Refusals made before a request reaches Nest, in the same `{detail}` shape as every other
 * error and without echoing the request (Fastify's own bodies quote the whole URL, and
 * Express's parsers their input).
 */

const BAD_URL = 'The path is not a valid URL: a "%" must be followed by two hexadecimal digits';
const LONG_PARAMETER = 'A part of the path is longer than this server accepts';
/** Fastify's default `maxParamLength`, which Express is held to as well. */
const MAX_PATH_PART = 100;

/** Fastify's `frameworkErrors`: a URL it cannot decode, a path parameter over its limit. */
export function onFastifyRefusal(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const [status, detail] =
    error.code === 'FST_ERR_BAD_URL'
      ? [400, BAD_URL]
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [HttpStatus.URI_TOO_LONG, LONG_PARAMETER]
        : [400, 'The request was refused before it reached a route'];
  void reply.code(status).send({ detail });
}

/** Express middleware: what Fastify refuses before routing, refused the same way. */
export function refuseUnroutablePath(
  request: IncomingMessage,
  _response: unknown,
  next: (error?: unknown) => void,
): void {
  const path = (request.url ?? '/').split('?', 1)[0];
  // Most paths: nothing to decode, and no part can be over the limit.
  if (path.length <= MAX_PATH_PART && !path.includes('%')) return next();
  let decoded: string[];
  try {
    decoded = path.split('/').map(decodeURIComponent);
  } catch {
    return next(new BadRequestException(BAD_URL));
  }
  if (decoded.some((part) => part.length > MAX_PATH_PART)) {
    return next(new HttpException(LONG_PARAMETER, HttpStatus.URI_TOO_LONG));
  }
  next();
}

/**
 * Express's body parsers' refusals (http-errors, `type` naming the case) as the
 * HttpExceptions Fastify's equivalents become; undefined for anything else. (JSON is
 * read as text and parsed by json-body.ts on both platforms.)
 */
export function parserRefusal(error: unknown): HttpException | undefined {
  const { type, status, expose, limit } = (error ?? {}) as {
    type?: unknown;
    status?: unknown;
    expose?: unknown;
    limit?: unknown;
  };
  if (typeof type !== 'string' || typeof status !== 'number' || expose !== true) return undefined;
  switch (type) {
    case 'entity.too.large':
      return new PayloadTooLargeException(
        `The body is too large: this server accepts ${String(limit)} bytes`,
      );
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new UnsupportedMediaTypeException(`The body's ${type.split('.')[0]} is not supported`);
    default:
      return new HttpException('The body could not be read', status);
  }
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    `The request line and headers are larger than this server accepts (${maxHeaderSize} bytes)`,
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive'],
};

/** Node's `clientError`: what its HTTP parser refuses, answered on the socket itself. */
export function onClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'The request is not valid HTTP',
  ];
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
