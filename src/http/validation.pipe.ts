import {
  ArgumentMetadata,
  BadRequestException,
  Type,
  ValidationPipe,
  ValidationPipeOptions,
} from '@nestjs/common';

/** Strict DTO validation: unknown fields and wrong types are 400s naming the field. */
const VALIDATION_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
};

/**
 * The global pipe of every body, query and path value. Besides the DTO rules:
 * - text holding U+0000 is a 400 naming its field (PostgreSQL's text cannot store it,
 *   and it would reach the database as a 500);
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
    const field =
      typeof value === 'string' && metadata.type === 'body'
        ? undefined
        : fieldWithNul(value, metadata.data ?? '');
    if (field !== undefined) throw new BadRequestException(nulDetail(field || 'The body'));
    return super.transform(value, metadata);
  }

  protected override transformPrimitive(value: unknown): unknown {
    return value;
  }
}

export function nulDetail(field: string): string {
  return `${field} contains a NUL character (U+0000), which text cannot hold`;
}

/** Where the first string holding U+0000 is: `properties.name`, `children.lines[2]…`. */
export function fieldWithNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = fieldWithNul(item, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [name, item] of Object.entries(value)) {
    if (name.includes('\0')) return `A field name in ${path || 'the body'}`;
    const found = fieldWithNul(item, path ? `${path}.${name}` : name);
    if (found !== undefined) return found;
  }
  return undefined;
}

const pipe = new RequestValidationPipe();

/** Validates a body that a handler could only classify after reading a header. */
export function parseBody<T>(dto: Type<T>, body: unknown): Promise<T> {
  return pipe.transform(body ?? {}, { type: 'body', metatype: dto }) as Promise<T>;
}
