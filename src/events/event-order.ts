/** An entry as the order per record sees it. */
interface Keyed {
  key: number;
  rootEntity: string;
  rootKey: number | null;
}

/** The record an entry is of (a child row's entry: its record's). */
export function recordOf(entry: { rootEntity: string; rootKey: number | null }): string {
  return `${entry.rootEntity}:${entry.rootKey}`;
}

/**
 * Of the entries a pass read, those that may go now, in key order, and those that wait:
 * each behind an earlier entry of its record not read yet (`unread`: the feed's entries of
 * these records past what it read; the candidates among them are read now), with every
 * later one of that record (its events go in the order they were written, or not at all
 * yet).
 */
export function inRecordOrder<T extends Keyed>(
  candidates: readonly T[],
  unread: readonly Keyed[],
): { ready: T[]; waiting: T[] } {
  const read = new Set(candidates.map((entry) => entry.key));
  // Each record's first entry still unread: its entries after it wait.
  const firstUnread = new Map<string, number>();
  for (const entry of unread) {
    if (read.has(entry.key)) continue;
    const record = recordOf(entry);
    firstUnread.set(record, Math.min(firstUnread.get(record) ?? Infinity, entry.key));
  }
  const ready: T[] = [];
  const waiting: T[] = [];
  for (const entry of [...candidates].sort((a, b) => a.key - b.key)) {
    const gap = firstUnread.get(recordOf(entry)) ?? Infinity;
    (entry.key > gap ? waiting : ready).push(entry);
  }
  return { ready, waiting };
}
