import { useCallback, useEffect, useState } from 'react';
import { useLatest } from './use-latest';

/**
 * What a screen shows from the server, read when it opens and again (`reload`) after its
 * own writes: only the newest answer is kept, and a refusal's message is `error` (which
 * the screen's writes may set too). `read` changes only when what it reads does
 * (a useCallback, or a function of the module).
 */
export function useRead<T>(read: () => Promise<T>, initial: T) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string>();
  const latest = useLatest();
  const reload = useCallback(() => {
    latest(read())
      .then(setValue)
      .catch((e: Error) => setError(e.message));
  }, [read, latest]);
  useEffect(reload, [reload]);
  return { value, setValue, error, setError, reload };
}
