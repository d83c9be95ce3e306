import { HttpException } from '@nestjs/common';

/**
 * A workflow's own refusal, with the status it chooses: 400 (the request makes no
 * sense), 404 (what it names does not exist), 409 (the state forbids it). The
 * transaction is rolled back as for any error.
 */
export class WorkflowError extends HttpException {
  constructor(status: 400 | 404 | 409, detail: string) {
    super({ detail }, status);
  }
}
