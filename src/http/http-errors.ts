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
