import { backoffSeconds } from '#shared/domain/notifications/channels';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { errorClass } from './error-classes';
import { finish, reviewFor, systemAudit } from './export-record';
import type { ExportOutcome, ExportRunDeps, Sent } from './export-run-types';
import { exportWindowTimer, windowOpensAt } from './export-window';
import type { ExportAttempt, ExportItem, StoredExport } from './ports';
import { publicExport } from './use-cases';

/**
 * The deciding half of an export run: what the run's outcomes make of the export (exported,
 * retrying, failed or partially exported), written with its audit event, review item and
 * workflow event in one conditional write under the run's lease (export-record.ts).
 */

/** What one run made of the export's items, for the three ends `settle` chooses between. */
interface Settled {
  e: StoredExport;
  items: ExportItem[];
  at: string;
  leaseUntil: string;
  receiveCount: number;
  firstError: ExportItem['error_code'];
  /** The target's words for `firstError`, if it gave any. */
  firstMessage: string | null;
  pending: ExportItem[];
  exported: number;
  busy: boolean;
  attemptOf: (outcome: ExportAttempt['outcome']) => ExportAttempt;
}

export async function settle(
  deps: ExportRunDeps,
  e: StoredExport,
  sent: Sent,
  leaseUntil: string,
  receiveCount: number,
): Promise<ExportOutcome> {
  const at = deps.clock.now().toISOString();
  let newlyBooked = 0;
  let busy = false;
  const items = e.items.map((item): ExportItem => {
    const o = sent.outcomes.get(item.index);
    if (!o || item.status !== 'pending') return item;
    if (o.ok) {
      if (item.external_id === null) newlyBooked += 1;
      return {
        ...item,
        status: 'exported',
        error_code: null,
        error_message: null,
        retryable: null,
        external_id: o.external_id,
      };
    }
    if ('busy' in o) {
      busy = true;
      return item;
    }
    const retryable = errorClass(o.error).retryable;
    return {
      ...item,
      status: retryable ? 'pending' : 'failed',
      error_code: o.error,
      error_message: o.message ?? null,
      retryable,
    };
  });
  const firstFailed = items.find((i) => i.status !== 'exported' && i.error_code);
  const firstError = firstFailed?.error_code ?? null;
  const firstMessage = firstFailed?.error_message ?? null;
  const settled: Settled = {
    e,
    items,
    at,
    leaseUntil,
    receiveCount,
    firstError,
    firstMessage,
    pending: items.filter((i) => i.status === 'pending'),
    exported: items.filter((i) => i.status === 'exported').length,
    busy,
    attemptOf: (outcome) => ({
      attempt: e.attempts.length + 1,
      at,
      outcome,
      error_code: outcome === 'exported' ? null : firstError,
      error_message: outcome === 'exported' ? null : firstMessage,
      sent: sent.sent,
      booked: newlyBooked,
    }),
  };
  if (settled.exported === items.length) return exportedAll(deps, settled);
  if ((settled.pending.length && receiveCount < deps.maxAttempts) || busy)
    return retryLater(deps, settled, sent);
  return giveUp(deps, settled);
}

async function exportedAll(
  deps: ExportRunDeps,
  { e, items, at, leaseUntil, exported, attemptOf }: Settled,
): Promise<ExportOutcome> {
  const next: StoredExport = {
    ...e,
    items,
    status: 'exported',
    updated_at: at,
    completed_at: at,
    attempts: [...e.attempts, attemptOf('exported')],
  };
  await finish(
    deps,
    next,
    leaseUntil,
    systemAudit(deps.clock, e, 'exported', `${exported} documents exported`, {
      attempt: next.attempts.length,
    }),
    null,
    null,
  );
  return { action: 'ack', result: 'exported', export: publicExport(next) };
}

async function retryLater(
  deps: ExportRunDeps,
  { e, items, at, leaseUntil, receiveCount, firstError, exported, busy, attemptOf }: Settled,
  sent: Sent,
): Promise<ExportOutcome> {
  const delaySeconds = busy
    ? deps.leaseSeconds
    : Math.max(backoffSeconds(receiveCount, deps.backoff), Math.ceil(sent.retryAfterSeconds));
  // The daily limit: a timer at the next day's window, not a message held for hours.
  const window =
    firstError === 'daily_limit_reached' && deps.armWindow ? windowOpensAt(at, sent.retryAfterSeconds) : null;
  const next: StoredExport = {
    ...e,
    items,
    status: 'retrying',
    updated_at: at,
    // The retry time: a duplicate of the message arriving before it finds the export not due.
    lease_until: window ?? new Date(Date.parse(at) + delaySeconds * deps.queueSecondMs).toISOString(),
    attempts: [...e.attempts, attemptOf('retryable_failure')],
  };
  if (window) await deps.armWindow!(exportWindowTimer(e, window));
  const summary = window
    ? `attempt ${next.attempts.length}: the target's daily limit is reached; waiting for the next day's window at ${window}`
    : `attempt ${next.attempts.length} failed: ${firstError ?? 'busy'}`;
  await finish(
    deps,
    next,
    leaseUntil,
    systemAudit(deps.clock, e, 'retrying', summary, {
      error_code: firstError,
      receive_count: receiveCount,
      booked: exported,
      ...(window ? { retry_at: window } : {}),
    }),
    null,
    null,
  );
  const reason = firstError ?? 'busy';
  if (window) return { action: 'ack', result: 'waiting', export: publicExport(next), reason };
  return { action: 'retry', result: 'retrying', delaySeconds, export: publicExport(next), reason };
}

/** The end of the road: whatever is not booked fails, and a person decides (retry or discard). */
async function giveUp(
  deps: ExportRunDeps,
  { e, items, at, leaseUntil, receiveCount, firstError, firstMessage, pending, exported, attemptOf }: Settled,
): Promise<ExportOutcome> {
  const exhausted = pending.length > 0;
  const status = exported > 0 ? 'partially_exported' : 'failed';
  // The target's own words, when it gave any, are what a person acts on.
  const said = firstMessage ? ` (${firstMessage})` : '';
  const detail = exhausted
    ? `${receiveCount} attempts failed, last: ${firstError}${said}`
    : `the target refused: ${firstError}${said}`;
  const review = reviewFor(e, at, exhausted ? 'dead_lettered' : 'permanent_failure', detail);
  const next: StoredExport = {
    ...e,
    items: items.map((i) => (i.status === 'pending' ? { ...i, status: 'failed' } : i)),
    status,
    review_item_id: review.id,
    updated_at: at,
    completed_at: at,
    attempts: [...e.attempts, attemptOf(exhausted ? 'retryable_failure' : 'permanent_failure')],
  };
  await finish(
    deps,
    next,
    leaseUntil,
    systemAudit(deps.clock, e, 'failed', `export ${status}: ${detail}`, {
      status,
      error_code: firstError,
      exported,
      review_item_id: review.id,
    }),
    review,
    workflowEventRecorded(deps.clock, 'accounting_export.failed', publicExport(next)),
  );
  const out = publicExport(next);
  return exhausted
    ? { action: 'dead_letter', result: status, export: out, reason: firstError ?? 'failed' }
    : { action: 'ack', result: status, export: out, reason: firstError ?? 'failed' };
}
