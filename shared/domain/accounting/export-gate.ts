import type { ExportAttempt, StoredExport } from './ports';
import type { ExportOutcome, ExportRunDeps } from './export-run-types';
import { finish, reviewFor, systemAudit } from './export-record';
import { publicExport } from './use-cases';

/**
 * The ends of an export run that send nothing: the export is not due or is leased by another run
 * (notYet), or it has no active connection to send to (gate, a review item for a person).
 */

/**
 * The export could not be leased: a run holds it (come back after its lease), or it waits for
 * its retry time and this message came early, a duplicate (come back at the retry time, so no
 * call goes out before the target's Retry-After). Neither is an attempt.
 */
export function notYet(deps: ExportRunDeps, found: StoredExport, start: Date): ExportOutcome {
  const retryAt = found.status === 'retrying' && found.lease_until ? Date.parse(found.lease_until) : 0;
  if (retryAt > start.getTime())
    return {
      action: 'retry',
      result: 'busy',
      delaySeconds: Math.ceil((retryAt - start.getTime()) / deps.queueSecondMs),
      reason: 'not_due',
    };
  return { action: 'retry', result: 'busy', delaySeconds: deps.leaseSeconds, reason: 'leased' };
}

export async function gate(deps: ExportRunDeps, e: StoredExport, leaseUntil: string): Promise<ExportOutcome> {
  const at = deps.clock.now().toISOString();
  const detail = e.integration_connection_id
    ? `connection ${e.integration_connection_id} is not active`
    : 'the tenant has no active accounting connection';
  const review = reviewFor(e, at, 'gated', detail);
  const attempt: ExportAttempt = {
    attempt: e.attempts.length + 1,
    at,
    outcome: 'gated',
    error_code: null,
    error_message: null,
    sent: 0,
    booked: 0,
  };
  const next: StoredExport = {
    ...e,
    status: 'gated',
    review_item_id: review.id,
    updated_at: at,
    attempts: [...e.attempts, attempt],
  };
  await finish(
    deps,
    next,
    leaseUntil,
    systemAudit(deps.clock, e, 'gated', `export gated: ${detail}`, { review_item_id: review.id }),
    review,
    null,
  );
  return { action: 'ack', result: 'gated', export: publicExport(next), reason: detail };
}
