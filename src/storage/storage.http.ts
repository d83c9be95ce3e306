import contentDisposition from 'content-disposition';
import parseRange from 'range-parser';
import { mediaTypeOf } from '../http/content-type.guard';
import { ByteRange } from './backends/storage-backend';

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/**
 * Types a browser runs, or may render as a document that runs script: never served
 * inline from the API's origin (an uploaded page would run with the caller's cookies).
 */
const ACTIVE_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'text/ecmascript',
  'application/ecmascript',
  'text/xsl',
  'application/xslt+xml',
]);

/** The type to store for what the client declared: a plain media type, else octet-stream. */
export function storedContentType(declared: string | undefined): string {
  const type = mediaTypeOf(declared);
  return MEDIA_TYPE.test(type) ? type : 'application/octet-stream';
}

export function isActiveContent(contentType: string): boolean {
  return ACTIVE_TYPES.has(contentType) || contentType.endsWith('+xml');
}

/** `inline` for view, `attachment` for download and for any active content (RFC 6266). */
export function dispositionOf(
  name: string,
  action: 'view' | 'download',
  contentType: string,
): string {
  const type = action === 'download' || isActiveContent(contentType) ? 'attachment' : 'inline';
  // The name as ASCII in `filename` (others as `_`), and whole in RFC 5987's `filename*`.
  return contentDisposition(name, { type, fallback: name.replace(/[^\x20-\x7e]/g, '_') });
}

/**
 * The single range a Range header asks for: undefined for the whole (no header, a
 * malformed one, or several ranges, which this server answers whole), 'unsatisfiable'
 * for a 416.
 */
export function rangeOf(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  // RFC 9110 §14.1.3: a suffix longer than the file means the whole file; range-parser
  // would call it unsatisfiable, so the suffix is cut to the size first.
  const clamped = header.replace(/(=|,)(\s*)-(\d+)/g, (whole, separator, space, digits) =>
    Number(digits) > size ? `${separator}${space}-${size}` : whole,
  );
  const ranges = parseRange(size, clamped, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  return { start: ranges[0].start, end: ranges[0].end };
}
