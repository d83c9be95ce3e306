import { BadRequestException } from '@nestjs/common';
import { FetchSyntaxError } from './fetch.errors';

/** 400 `{detail, line, column}`: the exception filter keeps the extra fields. */
export class FetchSyntaxException extends BadRequestException {
  constructor(error: FetchSyntaxError) {
    super({ detail: error.detail, line: error.line, column: error.column });
  }
}
