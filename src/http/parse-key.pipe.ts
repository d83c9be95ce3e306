import {
  ArgumentMetadata,
  BadRequestException,
  Injectable,
  NotFoundException,
  PipeTransform,
} from '@nestjs/common';

/** Decimal digits, the way the API writes a key: "0", or no leading zero. */
const KEY = /^(?:0|[1-9]\d*)$/;

/**
 * A key in a path: a non-negative integer, in the one spelling the API gives it (`01`
 * would otherwise be a second name of row 1, for caches and logs alike). One beyond 2^53
 * names no row this API can hand out (keys leave it as JSON numbers), so it is not found
 * rather than a bad request.
 */
@Injectable()
export class ParseKeyPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    return parseKey(value, metadata.data ?? 'key');
  }
}

/** A key written as text (a path, a query parameter, a form field), read as ParseKeyPipe reads it. */
export function parseKey(value: string, name: string): number {
  if (!KEY.test(value)) {
    throw new BadRequestException(
      `${name} must be a non-negative integer without leading zeros, not "${value}"`,
    );
  }
  const key = Number(value);
  if (!Number.isSafeInteger(key)) throw new NotFoundException(`No ${name} ${value} exists`);
  return key;
}
