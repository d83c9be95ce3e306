import type { FeedCandidate } from '../changes/change-feed.repository';

/** The record an entry is of (a child row's entry: its record's). */
export function recordOf(entry: { rootEntity: string; rootKey: number | null }): string {
  return `${entry.rootEntity}:${entry.rootKey}`;
}

/**
 * Of the entries a pass read, those that may go now, in key order, and those that wait:
 * each that waits behind an earlier entry of its record not read yet, and every later one
 * of that record (its events go in the order they were written, or not at all yet).
 */
export function inRecordOrder<T extends FeedCandidate>(
  candidates: readonly T[],
): { ready: T[]; waiting: T[] } {
  const ready: T[] = [];
  const waiting: T[] = [];
  const blocked = new Set<string>();
  for (const entry of [...candidates].sort((a, b) => a.key - b.key)) {
    const record = recordOf(entry);
    if (entry.waits || blocked.has(record)) {
      blocked.add(record);
      waiting.push(entry);
    } else {
      ready.push(entry);
    }
  }
  return { ready, waiting };
}
