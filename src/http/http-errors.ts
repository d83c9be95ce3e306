import { HttpException, HttpStatus } from '@nestjs/common';

/** An error whose response carries extra headers, which the exception filter copies. */
export class HttpExceptionWithHeaders extends HttpException {
  constructor(
    detail: string,
    status: HttpStatus,
    readonly headers: Record<string, string>,
  ) {
    super({ detail }, status);
  }
}

export class TooManyAttemptsException extends HttpExceptionWithHeaders {
  constructor(retryAfterSeconds: number) {
    super(
      `Too many failed attempts; try again in ${retryAfterSeconds} s`,
      HttpStatus.TOO_MANY_REQUESTS,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** 405 with the methods the path does answer, and what to send instead. */
export class MethodNotAllowedException extends HttpExceptionWithHeaders {
  constructor(method: string, allowed: readonly string[], hint: string) {
    super(`${method} is not answered here: ${hint}`, HttpStatus.METHOD_NOT_ALLOWED, {
      Allow: allowed.join(', '),
    });
  }
}
