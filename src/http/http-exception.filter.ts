import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { AbstractHttpAdapter } from '@nestjs/core';
import { isConnectionFailure } from '../database/postgres-errors';
import { HttpRequest, HttpResponse, nodeResponseOf } from './http.types';

const RETRY_AFTER_OUTAGE_SECONDS = 5;

/**
 * Every error leaves as `{detail}` with its status (spec 2.5). The platforms' own refusals
 * (a body too large or not parsable) arrive as HttpExceptions (src/http/). Unknown errors
 * are 500s whose detail names the request id that the log line carries, never a stack.
 * Written through Nest's adapter: the same on Express and Fastify.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  constructor(private readonly adapter: AbstractHttpAdapter) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<HttpResponse>();
    const request = http.getRequest<HttpRequest>();
    const { status, body, headers } = this.describe(exception, request);
    if (this.adapter.isHeadersSent(response)) {
      nodeResponseOf(response).destroy();
      return;
    }
    for (const [name, value] of Object.entries(headers)) {
      this.adapter.setHeader(response, name, value);
    }
    this.adapter.reply(response, body, status);
  }

  private describe(
    exception: unknown,
    request: HttpRequest,
  ): { status: number; body: object; headers: Record<string, string> } {
    if (this.isUnknownRoute(exception, request)) {
      // Nest's own says `Cannot GET <the whole URL>`: no answer repeats the request.
      return {
        status: 404,
        body: { detail: 'No route matches this method and path' },
        headers: {},
      };
    }
    if (exception instanceof HttpException) {
      const response = exception.getResponse();
      const detail = detailOfException(exception);
      const extra = typeof response === 'object' ? extraFields(response) : {};
      const headers = (exception as { headers?: Record<string, string> }).headers ?? {};
      return { status: exception.getStatus(), body: { ...extra, detail }, headers };
    }
    const requestId = String(request.id ?? '');
    this.logger.error({ err: exception, requestId }, 'Unhandled error');
    if (isConnectionFailure(exception)) {
      // An outage, not a fault of the request: the client may try again.
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        body: { detail: `The database cannot be reached (request id ${requestId}): try again` },
        headers: { 'Retry-After': String(RETRY_AFTER_OUTAGE_SECONDS) },
      };
    }
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: { detail: `Internal server error (request id ${requestId})` },
      headers: {},
    };
  }

  /** Nest's not-found handler's exception, as it words it. */
  private isUnknownRoute(exception: unknown, request: HttpRequest): boolean {
    const method = this.adapter.getRequestMethod(request) as string;
    const url = this.adapter.getRequestUrl(request) as string;
    return (
      exception instanceof NotFoundException && exception.message === `Cannot ${method} ${url}`
    );
  }
}

/** The `{detail}` an HttpException becomes, for code that words it again. */
export function detailOfException(exception: HttpException): string {
  const response = exception.getResponse();
  return typeof response === 'string' ? response : detailOf(response);
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
