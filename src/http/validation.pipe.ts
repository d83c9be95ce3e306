import {
  ArgumentMetadata,
  BadRequestException,
  Type,
  ValidationPipe,
  ValidationPipeOptions,
} from '@nestjs/common';
import { findUnstorableText, unstorableDetail } from './unstorable-text';

/** Strict DTO validation: unknown fields and wrong types are 400s naming the field. */
const VALIDATION_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
};

/**
 * The global pipe of every body, query and path value. Besides the DTO rules:
 * - text PostgreSQL cannot store as sent (U+0000, a lone surrogate) is a 400 naming its
 *   field (unstorable-text.ts);
 * - path and query values stay text until their own pipe reads them (ParseKeyPipe):
 *   ValidationPipe would convert a `number` parameter with `+value`, reading "0x10" as
 *   16 and " 3" as 3.
 */
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super(VALIDATION_OPTIONS);
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A custom parameter is what the server made (the caller), not what the client sent.
    if (metadata.type === 'custom') return Promise.resolve(value);
    // A text body (FETCH) is its parser's to read: it names the line and column.
    const found =
      typeof value === 'string' && metadata.type === 'body'
        ? undefined
        : findUnstorableText(value, metadata.data ?? '');
    if (found)
      throw new BadRequestException(unstorableDetail(found.field || 'The body', found.problem));
    return super.transform(value, metadata);
  }

  protected override transformPrimitive(value: unknown): unknown {
    return value;
  }
}

const pipe = new RequestValidationPipe();

/** Validates a body that a handler could only classify after reading a header. */
export function parseBody<T>(dto: Type<T>, body: unknown): Promise<T> {
  return pipe.transform(body ?? {}, { type: 'body', metatype: dto }) as Promise<T>;
}
