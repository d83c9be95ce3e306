import { Type, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';

/** Strict DTO validation: unknown fields and wrong types are 400s naming the field. */
export const VALIDATION_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
};

const pipe = new ValidationPipe(VALIDATION_OPTIONS);

/** Validates a body that a handler could only classify after reading a header. */
export function parseBody<T>(dto: Type<T>, body: unknown): Promise<T> {
  return pipe.transform(body ?? {}, { type: 'body', metatype: dto }) as Promise<T>;
}
