import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { Request, Response } from 'express';

/** Errors raised by Express's body parsers carry an HTTP status and a `type`. */
interface BodyParserError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message: string;
}

const BODY_PARSER_DETAILS: Record<string, string> = {
  'entity.parse.failed': 'The request body could not be parsed',
  'entity.too.large': 'The request body is larger than the server accepts',
  'encoding.unsupported': 'The request body uses an unsupported encoding',
  'charset.unsupported': 'The request body uses an unsupported charset',
  'request.aborted': 'The request was aborted',
};

/**
 * Every error leaves as `{detail}` with its status (spec 2.5). Unknown errors are 500s
 * whose detail names the request id that the log line carries, never a stack.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    const { status, body, headers } = this.describe(exception, request);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    response.status(status).json(body);
  }

  private describe(
    exception: unknown,
    request: Request,
  ): { status: number; body: object; headers: Record<string, string> } {
    if (exception instanceof HttpException) {
      const response = exception.getResponse();
      const detail = typeof response === 'string' ? response : detailOf(response);
      const extra = typeof response === 'object' ? extraFields(response) : {};
      const headers = (exception as { headers?: Record<string, string> }).headers ?? {};
      return { status: exception.getStatus(), body: { ...extra, detail }, headers };
    }
    const parserError = exception as BodyParserError;
    const status = parserError?.status ?? parserError?.statusCode;
    if (parserError?.type && typeof status === 'number' && status >= 400 && status < 500) {
      return {
        status,
        body: { detail: BODY_PARSER_DETAILS[parserError.type] ?? parserError.message },
        headers: {},
      };
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
