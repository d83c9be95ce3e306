import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Every error leaves as `{detail}` with its status (spec 2.5). Nest turns Fastify's own
 * refusals (a body too large or not parsable) into HttpExceptions with Fastify's message.
 * Unknown errors are 500s whose detail names the request id that the log line carries,
 * never a stack.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, body, headers } = this.describe(exception, request);
    if (response.sent || response.raw.headersSent) {
      response.raw.destroy();
      return;
    }
    for (const [name, value] of Object.entries(headers)) response.header(name, value);
    response.status(status).send(body);
  }

  private describe(
    exception: unknown,
    request: FastifyRequest,
  ): { status: number; body: object; headers: Record<string, string> } {
    if (isUnknownRoute(exception, request)) {
      // Nest's own says `Cannot GET <the whole URL>`: no answer repeats the request.
      return {
        status: 404,
        body: { detail: 'No route matches this method and path' },
        headers: {},
      };
    }
    if (exception instanceof HttpException) {
      const response = exception.getResponse();
      const detail = typeof response === 'string' ? response : detailOf(response);
      const extra = typeof response === 'object' ? extraFields(response) : {};
      const headers = (exception as { headers?: Record<string, string> }).headers ?? {};
      return { status: exception.getStatus(), body: { ...extra, detail }, headers };
    }
    const requestId = String(request.id ?? '');
    this.logger.error({ err: exception, requestId }, 'Unhandled error');
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: { detail: `Internal server error (request id ${requestId})` },
      headers: {},
    };
  }
}

function isUnknownRoute(exception: unknown, request: FastifyRequest): boolean {
  return (
    exception instanceof NotFoundException &&
    exception.message === `Cannot ${request.method} ${request.url}`
  );
}

function detailOf(response: object): string {
  const { detail, message } = response as { detail?: unknown; message?: unknown };
  if (typeof detail === 'string') return detail;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : 'Error';
}

/** Fields other than Nest's defaults travel with the detail (e.g. FETCH's line/column). */
function extraFields(response: object): Record<string, unknown> {
  const {
    message: _m,
    error: _e,
    statusCode: _s,
    detail: _d,
    ...rest
  } = response as Record<string, unknown>;
  return rest;
}
