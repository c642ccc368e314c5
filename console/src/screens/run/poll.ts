import { useEffect } from 'preact/hooks';

/**
 * Asks again every `ms` while `active` (a run acting on the worker, a replay under way), so the
 * page shows the outcome without a reload; it stops when the answer says it ended.
 */
export function usePoll(reload: () => void, active: boolean, ms = 1000) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(reload, ms);
    return () => clearInterval(timer);
  }, [active, reload, ms]);
}
