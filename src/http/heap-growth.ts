import { setFlagsFromString } from 'node:v8';

/** What V8 may grow the old generation to after a full collection: 1.75× what survived. */
const HEAP_GROWING_PERCENT = 75;

/**
 * Relies on V8's `--heap-growing-percent` (not a Node option: a V8 flag, set at run time,
 * which heap-growth.spec.ts checks V8 still has). By default V8 lets the old generation
 * grow to up to four times what survived the last full collection before it collects
 * again; the server keeps little alive, so its RSS under load is mostly garbage waiting
 * for that (the README's "Performance at scale" has the figures). Unlike a fixed
 * --max-old-space-size this sets no ceiling: a heap that holds more stays free to grow.
 * A --heap-growing-percent given to node wins.
 */
export function limitHeapGrowth(execArgv: string[] = process.execArgv): void {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent/.test(arg))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
