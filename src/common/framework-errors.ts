import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Refusals made before a request reaches Nest, in the same `{detail}` shape as every other
 * error and without echoing the request (Fastify's own bodies quote the whole URL).
 */

/** Fastify's `frameworkErrors`: a URL it cannot decode, a path parameter over its limit. */
export function onFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const [status, detail] =
    error.code === 'FST_ERR_BAD_URL'
      ? [400, 'The path is not a valid URL: a "%" must be followed by two hexadecimal digits']
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, 'A part of the path is longer than this server accepts']
        : [400, 'The request was refused before it reached a route'];
  void reply.code(status).send({ detail });
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
