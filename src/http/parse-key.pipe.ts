import {
  ArgumentMetadata,
  BadRequestException,
  Injectable,
  NotFoundException,
  PipeTransform,
} from '@nestjs/common';

const DIGITS = /^\d+$/;

/**
 * A key in a path: a non-negative integer. One beyond 2^53 names no row this API can
 * hand out (keys leave it as JSON numbers), so it is not found rather than a bad request.
 */
@Injectable()
export class ParseKeyPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const name = metadata.data ?? 'key';
    if (!DIGITS.test(value)) {
      throw new BadRequestException(`${name} must be a non-negative integer, not "${value}"`);
    }
    const key = Number(value);
    if (!Number.isSafeInteger(key)) throw new NotFoundException(`No ${name} ${value} exists`);
    return key;
  }
}
