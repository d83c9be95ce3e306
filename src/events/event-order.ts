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
 * these records past what it read, among them the candidates themselves), with every later
 * one of that record (its events go in the order they were written, or not at all yet).
 */
export function inRecordOrder<T extends Keyed>(
  candidates: readonly T[],
  unread: readonly Keyed[],
): { ready: T[]; waiting: T[] } {
  const unreadOf = new Map<string, Set<number>>();
  for (const entry of unread) {
    const record = recordOf(entry);
    unreadOf.set(record, (unreadOf.get(record) ?? new Set()).add(entry.key));
  }
  const ready: T[] = [];
  const waiting: T[] = [];
  const blocked = new Set<string>();
  for (const entry of [...candidates].sort((a, b) => a.key - b.key)) {
    const record = recordOf(entry);
    const earlier = [...(unreadOf.get(record) ?? [])].some((key) => key < entry.key);
    if (blocked.has(record) || earlier) {
      blocked.add(record);
      waiting.push(entry);
    } else {
      unreadOf.get(record)?.delete(entry.key);
      ready.push(entry);
    }
  }
  return { ready, waiting };
}
