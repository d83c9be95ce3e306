import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** What V8 may grow the old generation to after a full collection: 1.75× what survived. */
const HEAP_GROWING_PERCENT = 75;

/**
 * The young generation's size past which it grows no more: 8 MiB, two semi-spaces of 4,
 * what `node --max-semi-space-size=4` sets, against V8's 32 by default on this server.
 */
export const NEW_SPACE_BYTES = 8 * 1024 * 1024;

/**
 * Relies on V8's `--heap-growing-percent` (not a Node option: a V8 flag, set at run time,
 * which heap-growth.spec.ts checks V8 still has). By default V8 lets the old generation
 * grow to up to four times what survived the last full collection before it collects
 * again; the server keeps little alive, so its RSS under load is mostly garbage waiting
 * for that (docs/decisions.md, "Performance at scale", has the figures). Unlike a fixed
 * --max-old-space-size this sets no ceiling: a heap that holds more stays free to grow.
 * A --heap-growing-percent given to node wins.
 */
export function limitHeapGrowth(execArgv: string[] = process.execArgv): void {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent/.test(arg))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * Holds the young generation at NEW_SPACE_BYTES. V8 reads its ceiling only when the
 * process starts (`--max-semi-space-size`), but how much it grows it by after a
 * collection at every growth (`--semi-space-growth-factor`, 2): once a collection leaves
 * it at the size, the factor becomes 1 (it stays), and 2 again if V8 shrinks it while the
 * server idles. Under load the young generation is garbage almost entirely, so a smaller
 * one is collected more often for about the same work (docs/decisions.md has them): 25
 * MiB less RSS. The factor changes between tasks (a collection's report comes after it),
 * so one task allocating more than the young generation holds may still grow it once
 * more. A --max-semi-space-size given to node wins.
 */
export function limitNewSpace(
  execArgv: string[] = process.execArgv,
): PerformanceObserver | undefined {
  if (execArgv.some((arg) => /^--max[-_]semi[-_]space[-_]size/.test(arg))) return undefined;
  let full = false;
  const observer = new PerformanceObserver(() => {
    const reached = newSpaceBytes() >= NEW_SPACE_BYTES;
    if (reached === full) return;
    full = reached;
    setFlagsFromString(`--semi-space-growth-factor=${full ? 1 : 2}`);
  });
  observer.observe({ entryTypes: ['gc'] });
  return observer;
}

function newSpaceBytes(): number {
  return (
    getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0
  );
}
