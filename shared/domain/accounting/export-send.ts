import type { OperationContract } from '#shared/domain/integrations/catalog';
import { connectionFailure } from '#shared/domain/integrations/ports';
import { sha256 } from '#shared/kernel/secrets';
import { type ErrorCode, errorClass } from './error-classes';
import type { ExportRunDeps, Sent } from './export-run-types';
import type {
  AccountingExport,
  AccountingTarget,
  BookingResult,
  ExportItem,
  StoredExport,
  TargetDocument,
} from './ports';

/**
 * The sending half of an export run: which documents go out (what is booked stays booked, a
 * `sending` record of an earlier run is resolved first), in the target's batch size, paced to its
 * rate limit, each call's answer recorded on the document's booking, and what the run says about
 * its connection.
 */

/** The idempotency key of one document: derived from the tenant, the batch and the document. */
export const documentIdempotencyKey = (e: AccountingExport, item: ExportItem) =>
  `ops-${sha256([e.tenant_id, e.export_batch_id, String(item.index), item.document_ref].join('\u0000'))}`;

/** The adapter operation a document goes through (`export_invoices` for an invoice, ...). */
const operationFor = (operations: readonly OperationContract[], documentType: unknown) =>
  operations.find((o) => o.name === `export_${String(documentType ?? 'invoice')}s`) ??
  operations.find((o) => o.name === 'export_invoices');

type SendDeps = Pick<ExportRunDeps, 'exports' | 'clock' | 'wait'>;
type Pace = () => Promise<void>;

/**
 * Spaces calls so a run stays within the operation's calls per minute (one call in flight): the
 * time comes from the clock and the pause from the `wait` port.
 */
export function pacer(deps: Pick<ExportRunDeps, 'clock' | 'wait'>, op: OperationContract): Pace {
  const gapMs = op.rate_limit ? Math.ceil(60_000 / op.rate_limit.per_minute) : 0;
  let last = Number.NEGATIVE_INFINITY;
  return async () => {
    const wait = last + gapMs - deps.clock.now().getTime();
    if (wait > 0) await deps.wait(wait);
    last = deps.clock.now().getTime();
  };
}

const thrownError = (err: unknown): ErrorCode =>
  (err as Error)?.name === 'TimeoutError' || (err as Error)?.name === 'AbortError'
    ? 'timeout'
    : 'network_error';

/** Documents to send, by the operation they go through (in the order first needed), and the pacers. */
interface Sendable {
  byOperation: Map<OperationContract, TargetDocument[]>;
  paces: Map<OperationContract, Pace>;
}

/**
 * 1. What is already booked stays booked; a `sending` record of an earlier run is resolved first:
 *    by a lookup where the adapter declares one, else by the same idempotency key where the
 *    target keeps keys (within their retention), else not at all (`outcome_unknown`).
 */
async function resolveEarlierRuns(
  deps: SendDeps,
  e: StoredExport,
  target: AccountingTarget,
  operations: readonly OperationContract[],
  sent: Sent,
): Promise<Sendable> {
  const now = () => deps.clock.now().toISOString();
  const bookings = new Map((await deps.exports.bookings(e.tenant_id, e.id)).map((b) => [b.index, b]));
  const byOperation = new Map<OperationContract, TargetDocument[]>();
  const paces = new Map<OperationContract, Pace>();
  for (const item of e.items) {
    if (item.status !== 'pending') continue;
    const doc: TargetDocument = {
      index: item.index,
      idempotency_key: documentIdempotencyKey(e, item),
      document: e.documents[item.index]!,
    };
    const op = operationFor(operations, doc.document.document_type)!;
    if (!paces.has(op)) paces.set(op, pacer(deps, op));
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
  // Invoices first: a payment or credit note of the same export links to its invoice, which
  // must be booked before it (otherwise it waits a retry as `invoice_not_booked`).
  const invoicesFirst = [...byOperation].sort(
    ([a], [b]) => Number(b.name === 'export_invoices') - Number(a.name === 'export_invoices'),
  );
  return { byOperation: new Map(invoicesFirst), paces };
}

/** Claims each document of a chunk for this run; one claimed elsewhere is busy. */
async function claimChunk(
  deps: SendDeps,
  e: StoredExport,
  chunk: TargetDocument[],
  leaseUntil: string,
  sent: Sent,
): Promise<TargetDocument[]> {
  const now = () => deps.clock.now().toISOString();
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
  return claimed;
}

/**
 * Records the target's answer for one claimed document; returns the error that ends the run
 * (a 429 or an auth failure), if it is one.
 */
async function recordAnswer(
  deps: SendDeps,
  e: StoredExport,
  d: TargetDocument,
  r: BookingResult,
  sent: Sent,
): Promise<ErrorCode | undefined> {
  const now = () => deps.clock.now().toISOString();
  if (r.ok) {
    await deps.exports.record(e.tenant_id, e.id, {
      index: d.index,
      state: 'booked',
      idempotency_key: d.idempotency_key,
      external_id: r.external_id,
      booked_at: now(),
    });
    sent.outcomes.set(d.index, { ok: true, external_id: r.external_id });
    return undefined;
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
  sent.outcomes.set(d.index, { ok: false, error: r.error, ...(r.message ? { message: r.message } : {}) });
  if (r.error === 'rate_limited' || r.error === 'daily_limit_reached') {
    sent.retryAfterSeconds = Math.max(sent.retryAfterSeconds, r.retry_after_seconds ?? 0);
    return r.error;
  }
  // Sending stops: nothing else goes out under credentials the provider refuses.
  if (r.error === 'auth_failed' || r.error === 'reauthorization_required') return r.error;
  return undefined;
}

/**
 * Sends what is not booked: first resolves earlier runs' records (`resolveEarlierRuns`), then
 * 2. the rest, in the target's batch size, paced to its rate limit; a 429 (or the daily limit),
 *    an auth failure or a refused refresh ends the run (the documents not sent keep that error: retryable, or permanent).
 */
export async function sendDocuments(
  deps: SendDeps,
  e: StoredExport,
  target: AccountingTarget,
  operations: readonly OperationContract[],
  leaseUntil: string,
): Promise<Sent> {
  const sent: Sent = { outcomes: new Map(), calls: 0, sent: 0, retryAfterSeconds: 0 };
  const { byOperation, paces } = await resolveEarlierRuns(deps, e, target, operations, sent);
  let stop: ErrorCode | undefined;
  for (const [op, docs] of byOperation) {
    for (let i = 0; i < docs.length; i += op.batch_size) {
      const chunk = docs.slice(i, i + op.batch_size);
      if (stop) {
        for (const d of chunk) sent.outcomes.set(d.index, { ok: false, error: stop });
        continue;
      }
      const claimed = await claimChunk(deps, e, chunk, leaseUntil, sent);
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
        stop = (await recordAnswer(deps, e, d, r, sent)) ?? stop;
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
  'invoice_not_booked',
]);

/**
 * What a run says about its connection: a failure with the first connection-level error code, a
 * success when a call was answered without one, nothing when no call was made.
 */
export async function recordOnConnection(
  deps: Pick<ExportRunDeps, 'clock' | 'results'>,
  e: StoredExport,
  sent: Sent,
) {
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
