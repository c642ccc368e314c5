import { derivedId } from '#shared/kernel/ids';
import { compareDecimals, normalizeMoney } from '#shared/kernel/money';
import { auditEvent } from '#shared/domain/audit';
import type { BusinessDocument, DocumentStore } from '#shared/domain/documents/ports';
import type { BusinessException, ExceptionStore } from '#shared/domain/exceptions/ports';
import { type ExceptionReport, openException } from '#shared/domain/exceptions/record';
import { underPolicy } from '#shared/domain/escalation/attach';
import type { EscalationPolicyStore } from '#shared/domain/escalation/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { HubStore, ProviderReader, ProviderRecord, ReconciliationRun } from './ports';
import type { ReconciliationDeps } from './reconciliation-requests';

/**
 * Reconciliation runs (docs/api.md section 9.3): the API queues a run through the outbox
 * (`reconciliation-requests.ts`); the internal worker reads the provider's records and compares them with the tenant's documents.
 * Every mismatch becomes a business exception under an id derived from the mismatch, written with
 * a not-exists condition, so a second run (or a redelivery) that finds the same mismatch finds its
 * exception there instead of opening another.
 */

export interface ReconciliationWorkerDeps extends ReconciliationDeps {
  documents: DocumentStore;
  exceptions: ExceptionStore;
  hub: HubStore;
  provider: ProviderReader;
  /** The queue's receive limit: a provider failure on the last attempt fails the run instead of retrying. */
  maxAttempts: number;
  /** The tenant's escalation policies: a mismatch's exception is put under one as the API's are. */
  policies?: Pick<EscalationPolicyStore, 'all'>;
  /** Pages one firing reads at most (PAGES_PER_FIRING unless given). */
  pagesPerFiring?: number;
}

/** The document types `payment_reconciliation` compares. */
const RULE_SET_TYPES = ['invoice', 'payment'] as const;

export interface Mismatch {
  document: BusinessDocument;
  record: ProviderRecord;
}

export interface Comparison {
  matched: number;
  mismatches: Mismatch[];
  missing_in_provider: BusinessDocument[];
  missing_locally: ProviderRecord[];
}

/**
 * `payment_reconciliation`, pure. Each provider record finds its document by the reference the
 * document keeps for this adapter (`external_refs[adapter_key]`), else by type and number; a pair
 * whose amount or currency differ is a mismatch. A payment the provider links to an invoice
 * (`invoice_external_id`) is matched by that link instead, never by its own optional reference:
 * the invoice's provider id is the invoice document's `external_refs[adapter_key]` (what an
 * export records) or the provider invoice this comparison paired it with; among the payments
 * applying to that invoice (`applies_to`), the one of the same amount and currency, else the
 * first (a mismatch). Documents no record found are missing in the provider; records that found
 * no document are missing locally.
 */
export function compareRecords(
  adapterKey: string,
  documents: readonly BusinessDocument[],
  records: readonly ProviderRecord[],
): Comparison {
  const byRef = new Map<string, BusinessDocument>();
  const byNumber = new Map<string, BusinessDocument>();
  const invoiceAt = new Map<string, BusinessDocument>();
  const paymentsOf = new Map<string, BusinessDocument[]>();
  for (const d of documents) {
    const ref = d.external_refs?.[adapterKey];
    if (ref) byRef.set(ref, d);
    if (ref && d.document_type === 'invoice') invoiceAt.set(ref, d);
    if (d.document_type === 'payment' && d.applies_to)
      paymentsOf.set(d.applies_to, [...(paymentsOf.get(d.applies_to) ?? []), d]);
    byNumber.set(`${d.document_type}#${d.number}`, d);
  }
  const seen = new Set<string>();
  const out: Comparison = { matched: 0, mismatches: [], missing_in_provider: [], missing_locally: [] };
  const agree = (d: BusinessDocument, r: ProviderRecord) =>
    d.currency === r.currency && compareDecimals(normalizeMoney(d.amount), normalizeMoney(r.amount)) === 0;
  const pair = (d: BusinessDocument | undefined, record: ProviderRecord) => {
    if (!d || seen.has(d.id)) {
      out.missing_locally.push(record);
      return;
    }
    seen.add(d.id);
    if (agree(d, record)) out.matched += 1;
    else out.mismatches.push({ document: d, record });
  };
  const linked = records.filter((r) => r.document_type === 'payment' && r.invoice_external_id);
  for (const record of records) {
    if (record.document_type === 'payment' && record.invoice_external_id) continue;
    const d = byRef.get(record.external_id) ?? byNumber.get(`${record.document_type}#${record.number}`);
    if (d && !seen.has(d.id) && d.document_type === 'invoice' && record.document_type === 'invoice')
      invoiceAt.set(record.external_id, d);
    pair(d, record);
  }
  // After the invoices, so that every invoice this run paired is known by its provider id.
  for (const record of linked) {
    const own = byRef.get(record.external_id);
    const invoice = invoiceAt.get(record.invoice_external_id!);
    const candidates = (invoice ? (paymentsOf.get(invoice.id) ?? []) : []).filter((p) => !seen.has(p.id));
    pair(
      own?.document_type === 'payment' && !seen.has(own.id)
        ? own
        : (candidates.find((p) => agree(p, record)) ?? candidates[0]),
      record,
    );
  }
  out.missing_in_provider = documents.filter((d) => !seen.has(d.id));
  return out;
}

/** The mismatch's exception: its id derived from the mismatch, so finding it again finds this id. */
export function mismatchException(
  run: ReconciliationRun,
  { document: d, record }: Mismatch,
  now: string,
): BusinessException {
  const amountDiffers = d.currency === record.currency;
  const report: ExceptionReport = {
    id: derivedId(
      d.created_at,
      run.tenant_id,
      'payment_reconciliation',
      run.connection_id,
      d.id,
      record.external_id,
      `${d.amount} ${d.currency}`,
      `${record.amount} ${record.currency}`,
    ),
    tenant_id: run.tenant_id,
    exception_type: amountDiffers ? 'reconciliation.amount_mismatch' : 'reconciliation.currency_mismatch',
    severity: 'warning',
    subject_type: 'document',
    subject_id: d.id,
    title: `${d.document_type} ${d.number}: ${d.amount} ${d.currency} here, ${record.amount} ${record.currency} at ${run.adapter_key}`,
    summary: `The ${run.adapter_key} record ${record.external_id} of ${d.document_type} ${d.number} does not agree with the document.`,
    impact: { document_amount: d.amount, provider_amount: record.amount },
    evidence: {
      rule_set: run.rule_set,
      run_id: run.id,
      connection_id: run.connection_id,
      adapter_key: run.adapter_key,
      document: { id: d.id, number: d.number, amount: d.amount, currency: d.currency },
      provider_record: record,
    },
  };
  return openException(report, now);
}

async function documentsToCompare(deps: ReconciliationWorkerDeps, tenantId: string) {
  const found: BusinessDocument[] = [];
  for (const document_type of RULE_SET_TYPES) {
    let cursor: string | undefined;
    do {
      const page = await deps.documents.list(tenantId, { document_type }, { limit: 100, cursor });
      found.push(...page.items.filter((d) => d.status === 'open' || d.status === 'paid'));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }
  return found;
}

/** Pages one firing reads at most: a firing stays short, and leaves the rest of the minute's calls to the export. */
export const PAGES_PER_FIRING = 20;
/** Provider records one run keeps at most: a bound on the table space and the memory of its comparison. */
export const RUN_RECORDS_MAX = 50_000;

/**
 * A continuation that arrived before its `not_before` (the provider's Retry-After): the worker
 * puts the message back for `seconds` (a visibility change), without counting it as a failure.
 */
export class ReconciliationWaits extends Error {
  constructor(readonly seconds: number) {
    super(`reconciliation run continues in ${seconds} s`);
  }
}

/** The run's next firing, `seconds` from now, resuming after page `seq - 1`. */
function continuation(
  deps: ReconciliationWorkerDeps,
  run: ReconciliationRun,
  from: OutboxEvent,
  seq: number,
  seconds: number,
): OutboxEvent {
  const now = deps.clock.now();
  return {
    // Derived from the firing that writes it: a redelivery of that firing writes the same event.
    event_id: derivedId(now.toISOString(), run.tenant_id, run.id, from.event_id, String(seq)),
    kind: EVENT_KINDS.reconciliationRunRequested,
    tenant_id: run.tenant_id,
    idempotency_key: `reconciliation:${run.tenant_id}:${run.id}:${seq}:${from.event_id}`,
    occurred_at: now.toISOString(),
    payload: {
      run_id: run.id,
      not_before: new Date(now.getTime() + Math.max(0, seconds) * 1000).toISOString(),
    },
  };
}

/**
 * The internal worker's run.
 * 1. A run no longer `queued` was done by an earlier delivery: nothing to do. A continuation
 *    before its `not_before` waits (ReconciliationWaits).
 * 2. Read the provider's records page by page, from after the last page the run kept (so a later
 *    firing resumes there), each page kept as it is read. A refusal with Retry-After (the
 *    provider's rate limit), or this firing's share of pages read, queues a continuation of the
 *    run and ends the firing; the run stays `queued`. Another failure goes on the connection's
 *    health record and is retried through the queue; on the last attempt the run fails with it.
 * 3. With every page in: compare (compareRecords); write each mismatch's exception once
 *    (derived id, not-exists).
 * 4. Finish the run with its counts and exceptions, conditional on it still being `queued`.
 */
export async function runReconciliation(
  deps: ReconciliationWorkerDeps,
  event: OutboxEvent,
  receiveCount: number,
): Promise<ReconciliationRun | undefined> {
  const run = await deps.runs.get(event.tenant_id, String(event.payload.run_id));
  if (run?.status !== 'queued') return undefined;
  const notBefore = Date.parse(String(event.payload.not_before ?? ''));
  const early = notBefore - deps.clock.now().getTime();
  if (early > 0) throw new ReconciliationWaits(Math.ceil(early / 1000));
  const finish = async (done: ReconciliationRun) => {
    await deps.runs.finish(
      done,
      auditEvent(deps.clock, {
        tenant_id: done.tenant_id,
        event_type: `reconciliation_run.${done.status}`,
        actor_id: null,
        entity_type: 'reconciliation_run',
        entity_id: done.id,
        summary:
          done.status === 'completed'
            ? `matched ${done.matched}, mismatched ${done.mismatched}, missing in provider ${done.missing_in_provider}, missing locally ${done.missing_locally}`
            : (done.error ?? 'failed'),
      }),
    );
    return done;
  };
  const at = () => deps.clock.now().toISOString();
  const failed = (error: string) =>
    finish({ ...run, status: 'failed', error, updated_at: at(), completed_at: at() });
  const c = await deps.connections.get(run.tenant_id, run.connection_id);
  if (!c) return failed('the connection was deleted');

  const pages = await deps.runs.pages(run.tenant_id, run.id);
  let kept = pages.reduce((n, p) => n + p.records.length, 0);
  const last = pages.at(-1);
  let seq = last ? last.seq + 1 : 0;
  let cursor = last?.next ?? undefined;
  // A run whose last kept page was the provider's last reads nothing more.
  for (let read = 0; last?.next !== null; read += 1) {
    if (read === (deps.pagesPerFiring ?? PAGES_PER_FIRING)) {
      await deps.runs.continueLater(continuation(deps, run, event, seq, 0));
      return undefined;
    }
    const answer = await deps.provider.records(c, cursor);
    if (!answer) return failed('no provider endpoint is configured in this deployment');
    if (!answer.ok) {
      if (answer.retry_after_seconds !== undefined) {
        await deps.runs.continueLater(continuation(deps, run, event, seq, answer.retry_after_seconds));
        return undefined;
      }
      await deps.hub.recordResult(c.tenant_id, c.id, {
        ok: false,
        at: at(),
        reason: `reconciliation: ${answer.reason}`,
      });
      if (receiveCount < deps.maxAttempts) throw new Error(`provider records: ${answer.reason}`);
      return failed(`the provider did not answer: ${answer.reason}`);
    }
    kept += answer.records.length;
    if (kept > RUN_RECORDS_MAX)
      return failed(`the provider holds more than ${RUN_RECORDS_MAX} records; reconcile a smaller book`);
    const page = { seq, records: answer.records, next: answer.next ?? null };
    await deps.runs.savePage(run.tenant_id, run.id, page);
    pages.push(page);
    if (page.next === null) break;
    seq += 1;
    cursor = page.next;
  }
  await deps.hub.recordResult(c.tenant_id, c.id, { ok: true, at: at() });
  const compared = compareRecords(
    c.adapter_key,
    await documentsToCompare(deps, run.tenant_id),
    pages.flatMap((p) => p.records),
  );
  const exceptionIds: string[] = [];
  const policies =
    compared.mismatches.length > 0 && deps.policies ? await deps.policies.all(run.tenant_id) : [];
  for (const mismatch of compared.mismatches) {
    const e = mismatchException(run, mismatch, at());
    const { exception, policy, timer } = underPolicy(policies, e, deps.clock.now());
    await deps.exceptions.createOnce(
      exception,
      auditEvent(deps.clock, {
        tenant_id: e.tenant_id,
        event_type: 'exception.created',
        actor_id: null,
        entity_type: 'exception',
        entity_id: e.id,
        summary: e.title,
        metadata: {
          exception_type: e.exception_type,
          severity: e.severity,
          run_id: run.id,
          ...(policy && { escalation_policy_id: policy.id }),
        },
      }),
      workflowEventRecorded(deps.clock, 'exception.created', e),
      timer,
    );
    exceptionIds.push(e.id);
  }
  return finish({
    ...run,
    status: 'completed',
    matched: compared.matched,
    mismatched: compared.mismatches.length,
    missing_in_provider: compared.missing_in_provider.length,
    missing_locally: compared.missing_locally.length,
    exception_ids: exceptionIds,
    updated_at: at(),
    completed_at: at(),
  });
}
