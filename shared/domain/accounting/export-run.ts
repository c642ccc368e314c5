import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { auditEvent } from '#shared/domain/audit';
import type { OperationContract } from '#shared/domain/integrations/catalog';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import {
  type ActiveConnectionReader,
  connectionFailure,
  type ConnectionResults,
} from '#shared/domain/integrations/ports';
import { backoffSeconds, type BackoffSettings } from '#shared/domain/notifications/channels';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import { openReviewItem } from '#shared/domain/review';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { sha256 } from '#shared/kernel/secrets';
import { type ErrorCode, errorClass } from './error-classes';
import type {
  AccountingExport,
  AccountingTarget,
  AccountingTargets,
  BookingResult,
  ExportAttempt,
  ExportItem,
  ExportStore,
  StoredExport,
  TargetDocument,
} from './ports';
import { publicExport } from './use-cases';

/**
 * The external worker's use case of the accounting export (docs/api.md section 9.2): one
 * `accounting.export.requested` message in, one decision out (ack, retry later, or let the queue
 * dead-letter it after the export was marked failed).
 *
 * Booked once: each document has a record at `export_booking` that is claimed (`sending`, under
 * the run's lease) before its call and set to `booked` with the target's `external_id` after it,
 * so a later run (a retry, a redelivered or redriven message, a review's retry) sends only what
 * is not booked. A crash between the call and the record leaves `sending`: the next run resolves
 * it before sending again — by the same idempotency key where the target keeps keys (and within
 * their retention), by a lookup of the document's reference where the adapter declares one,
 * and otherwise not at all (`outcome_unknown`, for a person to check).
 */

export interface ExportRunDeps {
  exports: ExportStore;
  connections: ActiveConnectionReader;
  /** Where a run's outcome at the target is recorded on the connection it used (its health). */
  results: ConnectionResults;
  targets: AccountingTargets;
  clock: Clock;
  maxAttempts: number;
  backoff: BackoffSettings;
  /** How long a run holds the export (the consumer's visibility timeout). */
  leaseSeconds: number;
  /**
   * How long a second of the queue's delays lasts on `clock`: 1000 on SQS; the local runtime's
   * queues run faster. The retry time kept on the export is when the queue gives the message
   * back, so it is counted in the queue's seconds.
   */
  queueSecondMs: number;
}

export type ExportOutcome =
  | {
      action: 'ack';
      result: 'exported' | 'duplicate' | 'skipped' | 'gated' | 'failed' | 'partially_exported';
      export?: AccountingExport;
      reason?: string;
    }
  | {
      action: 'retry';
      result: 'retrying' | 'busy';
      delaySeconds: number;
      export?: AccountingExport;
      reason?: string;
    }
  | {
      action: 'dead_letter';
      result: 'failed' | 'partially_exported';
      export: AccountingExport;
      reason: string;
    };

/** The idempotency key of one document: derived from the tenant, the batch and the document. */
export const documentIdempotencyKey = (e: AccountingExport, item: ExportItem) =>
  `ops-${sha256([e.tenant_id, e.export_batch_id, String(item.index), item.document_ref].join('\u0000'))}`;

const RUNNABLE = new Set(['queued', 'retrying', 'exporting']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The adapter operation a document goes through (`export_invoices` for an invoice, ...). */
const operationFor = (operations: readonly OperationContract[], documentType: unknown) =>
  operations.find((o) => o.name === `export_${String(documentType ?? 'invoice')}s`) ??
  operations.find((o) => o.name === 'export_invoices');

type Outcome =
  { ok: true; external_id: string } | { ok: false; error: ErrorCode } | { ok: false; busy: true };

/** One run's sending: each sendable document's outcome, the calls made, the longest Retry-After. */
interface Sent {
  outcomes: Map<number, Outcome>;
  calls: number;
  sent: number;
  retryAfterSeconds: number;
}

/** Spaces calls so a run stays within the operation's calls per minute (one call in flight). */
function pacer(op: OperationContract) {
  const gapMs = op.rate_limit ? Math.ceil(60_000 / op.rate_limit.per_minute) : 0;
  let last = 0;
  return async () => {
    const wait = last + gapMs - Date.now();
    if (wait > 0) await sleep(wait);
    last = Date.now();
  };
}

const thrownError = (err: unknown): ErrorCode =>
  (err as Error)?.name === 'TimeoutError' || (err as Error)?.name === 'AbortError'
    ? 'timeout'
    : 'network_error';

async function sendDocuments(
  deps: ExportRunDeps,
  e: StoredExport,
  target: AccountingTarget,
  operations: readonly OperationContract[],
  leaseUntil: string,
): Promise<Sent> {
  const now = () => deps.clock.now().toISOString();
  const bookings = new Map((await deps.exports.bookings(e.tenant_id, e.id)).map((b) => [b.index, b]));
  const sent: Sent = { outcomes: new Map(), calls: 0, sent: 0, retryAfterSeconds: 0 };
  const byOperation = new Map<OperationContract, TargetDocument[]>();
  const paces = new Map<OperationContract, () => Promise<void>>();

  // 1. What is already booked stays booked; a `sending` record of an earlier run is resolved first.
  for (const item of e.items) {
    if (item.status !== 'pending') continue;
    const doc: TargetDocument = {
      index: item.index,
      idempotency_key: documentIdempotencyKey(e, item),
      document: e.documents[item.index]!,
    };
    const op = operationFor(operations, doc.document.document_type)!;
    if (!paces.has(op)) paces.set(op, pacer(op));
    const previous = bookings.get(item.index);
    if (previous?.state === 'booked') {
      sent.outcomes.set(item.index, { ok: true, external_id: previous.external_id });
      continue;
    }
    if (previous?.state === 'sending') {
      if (previous.lease_until > now()) {
        sent.outcomes.set(item.index, { ok: false, busy: true });
        continue;
      }
      const idem = op.idempotency;
      const age = deps.clock.now().getTime() - Date.parse(previous.claimed_at);
      if (idem.strategy === 'natural_key' && target.lookup) {
        await paces.get(op)!();
        const found = await target.lookup(doc).catch((err: unknown) => ({ error: thrownError(err) }));
        if (typeof found === 'string') {
          await deps.exports.record(e.tenant_id, e.id, {
            index: item.index,
            state: 'booked',
            idempotency_key: doc.idempotency_key,
            external_id: found,
            booked_at: now(),
          });
          sent.outcomes.set(item.index, { ok: true, external_id: found });
          continue;
        }
        if (found !== null) {
          sent.outcomes.set(item.index, { ok: false, error: found.error });
          continue;
        }
      } else if (
        idem.strategy !== 'header' ||
        (idem.retention_hours !== null && age >= idem.retention_hours * 3600_000)
      ) {
        sent.outcomes.set(item.index, { ok: false, error: 'outcome_unknown' });
        continue;
      }
    }
    byOperation.set(op, [...(byOperation.get(op) ?? []), doc]);
  }

  // 2. The rest, in the target's batch size, paced to its rate limit; a 429 or an auth failure
  //    ends the run (the documents not sent keep that error: retryable, or permanent).
  let stop: ErrorCode | undefined;
  for (const [op, docs] of byOperation) {
    for (let i = 0; i < docs.length; i += op.batch_size) {
      const chunk = docs.slice(i, i + op.batch_size);
      if (stop) {
        for (const d of chunk) sent.outcomes.set(d.index, { ok: false, error: stop });
        continue;
      }
      const claimed: TargetDocument[] = [];
      for (const d of chunk) {
        const claim = await deps.exports.claimBooking(
          e.tenant_id,
          e.id,
          {
            index: d.index,
            state: 'sending',
            idempotency_key: d.idempotency_key,
            claimed_at: now(),
            lease_until: leaseUntil,
          },
          now(),
        );
        if (claim === 'claimed') claimed.push(d);
        else sent.outcomes.set(d.index, { ok: false, busy: true });
      }
      if (!claimed.length) continue;
      await paces.get(op)!();
      sent.calls += 1;
      sent.sent += claimed.length;
      const results: BookingResult[] = await target
        .book(claimed)
        .catch((err: unknown) =>
          claimed.map((d) => ({ index: d.index, ok: false as const, error: thrownError(err) })),
        );
      const answered = new Map(results.map((r) => [r.index, r]));
      for (const d of claimed) {
        const r = answered.get(d.index) ?? {
          index: d.index,
          ok: false as const,
          error: 'target_unavailable' as const,
        };
        if (r.ok) {
          await deps.exports.record(e.tenant_id, e.id, {
            index: d.index,
            state: 'booked',
            idempotency_key: d.idempotency_key,
            external_id: r.external_id,
            booked_at: now(),
          });
          sent.outcomes.set(d.index, { ok: true, external_id: r.external_id });
          continue;
        }
        // A refusal the target answered certainly booked nothing: the document is free again.
        // Otherwise the target may have booked it: the claim stays, its call over.
        if (!errorClass(r.error).outcomeUnknown) await deps.exports.release(e.tenant_id, e.id, d.index);
        else {
          const ended = now();
          await deps.exports.record(e.tenant_id, e.id, {
            index: d.index,
            state: 'sending',
            idempotency_key: d.idempotency_key,
            claimed_at: ended,
            lease_until: ended,
          });
        }
        sent.outcomes.set(d.index, { ok: false, error: r.error });
        if (r.error === 'rate_limited') {
          sent.retryAfterSeconds = Math.max(sent.retryAfterSeconds, r.retry_after_seconds ?? 0);
          stop = 'rate_limited';
        }
        if (r.error === 'auth_failed') stop = 'auth_failed';
      }
    }
  }
  return sent;
}

/**
 * Errors that say the document was refused, not that the connection failed: the target answered
 * (so it is reachable and the credentials hold), or no call was made.
 */
const DOCUMENT_ERRORS: ReadonlySet<ErrorCode> = new Set([
  'validation_rejected',
  'target_rejected',
  'outcome_unknown',
]);

/**
 * What a run says about its connection: a failure with the first connection-level error code, a
 * success when a call was answered without one, nothing when no call was made.
 */
async function recordOnConnection(deps: ExportRunDeps, e: StoredExport, sent: Sent) {
  if (!e.integration_connection_id) return;
  const at = deps.clock.now().toISOString();
  const failed = [...sent.outcomes.values()].find(
    (o): o is { ok: false; error: ErrorCode } => !o.ok && 'error' in o && !DOCUMENT_ERRORS.has(o.error),
  );
  if (failed)
    await deps.results.record(e.tenant_id, e.integration_connection_id, connectionFailure(at, failed.error));
  else if (sent.calls > 0)
    await deps.results.record(e.tenant_id, e.integration_connection_id, { ok: true, at });
}

/** `simulate_failure` (docs/api.md section 9.2): the error every pending document gets, no call made. */
function simulated(e: StoredExport): ErrorCode | undefined {
  if (e.simulate_failure === 'permanent') return 'validation_rejected';
  if (e.simulate_failure === 'retryable' && e.attempts.length === 0) return 'target_unavailable';
  return undefined;
}

const allPending = (e: StoredExport, error: ErrorCode): Sent => ({
  outcomes: new Map(
    e.items.filter((i) => i.status === 'pending').map((i) => [i.index, { ok: false, error }]),
  ),
  calls: 0,
  sent: 0,
  retryAfterSeconds: 0,
});

const systemAudit = (
  clock: Clock,
  e: AccountingExport,
  verb: string,
  summary: string,
  metadata: Record<string, unknown>,
) =>
  auditEvent(clock, {
    tenant_id: e.tenant_id,
    event_type: `accounting_export.${verb}`,
    actor_id: null,
    entity_type: 'accounting_export',
    entity_id: e.id,
    summary,
    metadata,
  });

const reviewFor = (
  e: AccountingExport,
  now: string,
  reason: ReviewItem['reason'],
  detail: string,
): ReviewItem =>
  openReviewItem(
    {
      id: newId(),
      tenant_id: e.tenant_id,
      kind: 'accounting_export',
      subject_id: e.id,
      notification_id: null,
      channel: null,
      reason,
      detail,
    },
    now,
  );

/**
 * Run one export message.
 * 1. Read the export; exported is a duplicate, any other end state is skipped (acknowledged).
 * 2. Take the run's lease (conditional write); held by another run: retry after the lease.
 * 3. Resolve the connection (`integration_connection_id`, else the tenant's active `accounting`
 *    connection); none: `gated` with a review item.
 * 4. Send what is not booked (`sendDocuments`), unless `simulate_failure` fails the attempt, and
 *    record what the target answered on the connection's health (`recordOnConnection`).
 * 5. All booked: `exported`. Retryable failures with attempts left: `retrying`, after the backoff
 *    or the target's Retry-After, whichever is longer. Otherwise `failed` (nothing booked) or
 *    `partially_exported`, with a review item and the `accounting_export.failed` workflow
 *    event, written before the message is acknowledged or reaches the DLQ.
 */
export async function runExport(
  deps: ExportRunDeps,
  exportId: string,
  tenantId: string,
  receiveCount: number,
): Promise<ExportOutcome> {
  const found = await deps.exports.get(tenantId, exportId);
  if (!found) return { action: 'ack', result: 'skipped', reason: 'not_found' };
  if (found.status === 'exported') return { action: 'ack', result: 'duplicate', export: publicExport(found) };
  if (!RUNNABLE.has(found.status))
    return { action: 'ack', result: 'skipped', export: publicExport(found), reason: found.status };

  const start = deps.clock.now();
  const startedAt = start.toISOString();
  const leaseUntil = new Date(start.getTime() + deps.leaseSeconds * 1000).toISOString();
  if (!(await deps.exports.lease(found, leaseUntil, startedAt))) return notYet(deps, found, start);
  const e: StoredExport = { ...found, status: 'exporting', updated_at: startedAt, lease_until: leaseUntil };

  let sent: Sent;
  const simulation = simulated(e);
  if (simulation) sent = allPending(e, simulation);
  else {
    const active = await deps.connections.findActiveConnection(
      tenantId,
      e.integration_connection_id ? { id: e.integration_connection_id } : { category: 'accounting' },
    );
    if (!active) return gate(deps, e, leaseUntil);
    const adapter = adapterByKey(active.connection.adapter_key);
    const target =
      adapter?.category === 'accounting'
        ? deps.targets.open(active.connection, await active.secret())
        : undefined;
    e.integration_connection_id = active.connection.id;
    sent =
      target && adapter
        ? await sendDocuments(deps, e, target, adapter.operations, leaseUntil)
        : allPending(e, 'not_configured');
    await recordOnConnection(deps, e, sent);
  }
  return settle(deps, e, sent, leaseUntil, receiveCount);
}

/**
 * The export could not be leased: a run holds it (come back after its lease), or it waits for
 * its retry time and this message came early, a duplicate (come back at the retry time, so no
 * call goes out before the target's Retry-After). Neither is an attempt.
 */
function notYet(deps: ExportRunDeps, found: StoredExport, start: Date): ExportOutcome {
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

async function gate(deps: ExportRunDeps, e: StoredExport, leaseUntil: string): Promise<ExportOutcome> {
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

async function finish(
  deps: ExportRunDeps,
  next: StoredExport,
  leaseUntil: string,
  audit: ReturnType<typeof auditEvent>,
  review: ReviewItem | null,
  outbox: OutboxEvent | null,
) {
  if (!(await deps.exports.finish(next, leaseUntil, audit, review, outbox)))
    throw new Error('the export changed under the run: its lease expired');
}

async function settle(
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
      return { ...item, status: 'exported', error_code: null, retryable: null, external_id: o.external_id };
    }
    if ('busy' in o) {
      busy = true;
      return item;
    }
    const retryable = errorClass(o.error).retryable;
    return { ...item, status: retryable ? 'pending' : 'failed', error_code: o.error, retryable };
  });
  const firstError = items.find((i) => i.status !== 'exported' && i.error_code)?.error_code ?? null;
  const pending = items.filter((i) => i.status === 'pending');
  const exported = items.filter((i) => i.status === 'exported').length;
  const attemptOf = (outcome: ExportAttempt['outcome']): ExportAttempt => ({
    attempt: e.attempts.length + 1,
    at,
    outcome,
    error_code: outcome === 'exported' ? null : firstError,
    sent: sent.sent,
    booked: newlyBooked,
  });

  if (exported === items.length) {
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

  if ((pending.length && receiveCount < deps.maxAttempts) || busy) {
    const delaySeconds = busy
      ? deps.leaseSeconds
      : Math.max(backoffSeconds(receiveCount, deps.backoff), Math.ceil(sent.retryAfterSeconds));
    const next: StoredExport = {
      ...e,
      items,
      status: 'retrying',
      updated_at: at,
      // The retry time: a duplicate of the message arriving before it finds the export not due.
      lease_until: new Date(Date.parse(at) + delaySeconds * deps.queueSecondMs).toISOString(),
      attempts: [...e.attempts, attemptOf('retryable_failure')],
    };
    await finish(
      deps,
      next,
      leaseUntil,
      systemAudit(
        deps.clock,
        e,
        'retrying',
        `attempt ${next.attempts.length} failed: ${firstError ?? 'busy'}`,
        {
          error_code: firstError,
          receive_count: receiveCount,
          booked: exported,
        },
      ),
      null,
      null,
    );
    return {
      action: 'retry',
      result: 'retrying',
      delaySeconds,
      export: publicExport(next),
      reason: firstError ?? 'busy',
    };
  }

  // The end of the road: whatever is not booked fails, and a person decides (retry or discard).
  const exhausted = pending.length > 0;
  const status = exported > 0 ? 'partially_exported' : 'failed';
  const detail = exhausted
    ? `${receiveCount} attempts failed, last: ${firstError}`
    : `the target refused: ${firstError}`;
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
