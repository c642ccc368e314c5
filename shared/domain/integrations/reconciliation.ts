import { derivedId } from '#shared/kernel/ids';
import { auditEvent } from '#shared/domain/audit';
import type { BusinessDocument, DocumentStore } from '#shared/domain/documents/ports';
import type { ExceptionStore } from '#shared/domain/exceptions/ports';
import { underPolicy } from '#shared/domain/escalation/attach';
import type { EscalationPolicyStore } from '#shared/domain/escalation/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { HubStore, ProviderReader, ReconciliationRun } from './ports';
import { compareRecords, mismatchException } from './reconciliation-compare';
import type { ReconciliationDeps } from './reconciliation-requests';

/**
 * Reconciliation runs (docs/api.md section 9.3): the API queues a run through the outbox
 * (`reconciliation-requests.ts`); the internal worker reads the provider's records (here, page by
 * page) and compares them with the tenant's documents (`reconciliation-compare.ts`).
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
