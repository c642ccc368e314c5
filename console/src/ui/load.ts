import { useCallback, useEffect, useState } from 'preact/hooks';
import { isConflict } from './problem.js';

export type Loaded<T> =
  | { state: 'loading'; data?: undefined; error?: undefined }
  | { state: 'ok'; data: T; error?: undefined }
  | { state: 'error'; data?: undefined; error: unknown };

/**
 * Loads `fetcher`'s answer whenever `deps` change (a screen's URL): loading, then the data or
 * the error. An answer for deps that have since changed is dropped, so a slow page never
 * overwrites a newer one. `reload` asks again (after an action, or a 409).
 */
export function useLoad<T>(fetcher: () => Promise<T>, deps: unknown[]): Loaded<T> & { reload(): void } {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setLoaded((was) => (was.state === 'ok' && round > 0 ? was : { state: 'loading' }));
    fetcher().then(
      (data) => current && setLoaded({ state: 'ok', data }),
      (error: unknown) => current && setLoaded({ state: 'error', error }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...loaded, reload };
}

/**
 * A write a screen makes: busy while it runs, its error kept for the form, and `reload` after it,
 * or after a 409 (the record changed: show it as it is now). Resolves whether it succeeded.
 */
export function useAction(reload: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (call: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await call();
      reload();
      return true;
    } catch (err) {
      setError(err);
      if (isConflict(err)) reload();
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
