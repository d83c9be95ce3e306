/**
 * Whether an If-Match / If-None-Match header names `etag` (or is `*`). Weak and strong
 * forms compare alike: these ETags describe the content, and nothing here is ranged by a
 * weak one.
 */
export function etagMatches(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
