import { useCallback, useRef } from 'react';

/** Never settles: what an outdated read turns into. */
const dropped = new Promise<never>(() => {});

/**
 * For a screen that reads again while an earlier read may still be on its way (a new
 * filter, a save, another record): wraps each read so that only the newest one's answer
 * is used; an older one, arriving late, is dropped.
 */
export function useLatest(): <T>(read: Promise<T>) => Promise<T> {
  const newest = useRef(0);
  return useCallback(<T>(read: Promise<T>): Promise<T> => {
    const mine = ++newest.current;
    const isNewest = () => mine === newest.current;
    return read.then(
      (value) => (isNewest() ? value : dropped),
      (error: unknown) => (isNewest() ? Promise.reject(error as Error) : dropped),
    );
  }, []);
}
