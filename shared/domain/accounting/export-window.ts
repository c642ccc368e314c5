import type { Timer } from '#shared/domain/timers/ports';

/**
 * The daily limit (docs/api.md section 9.2, "daily_limit_reached"): a run that meets a
 * provider's daily limit does not hold its queue message for the hours until the next day's
 * window (SQS keeps a message invisible 12 hours at most, and every receive counts towards the
 * dead-letter queue). The export waits as `retrying` with its retry time at the window, an
 * `export_window` timer is armed there, and the message is acknowledged; the timer's firing asks
 * the worker to run the export again with a fresh message (and so a fresh attempt budget):
 * shared/domain/timers/export-window.ts.
 */

/** Without a Retry-After from the provider, look again in an hour: a call too early is one more 429. */
export const WINDOW_FALLBACK_SECONDS = 3600;

/** When the next day's window opens: the provider's Retry-After from now, else the fallback. */
export const windowOpensAt = (at: string, retryAfterSeconds: number): string =>
  new Date(
    Date.parse(at) + (retryAfterSeconds > 0 ? retryAfterSeconds : WINDOW_FALLBACK_SECONDS) * 1000,
  ).toISOString();

export const exportWindowTimer = (e: { id: string; tenant_id: string }, dueAt: string): Timer => ({
  id: `export_window:${e.id}`,
  tenant_id: e.tenant_id,
  kind: 'export_window',
  subject_type: 'accounting_export',
  subject_id: e.id,
  due_at: dueAt,
});
