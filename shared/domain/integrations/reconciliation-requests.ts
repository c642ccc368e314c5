import type * as z from 'zod/mini';
import type { ReconciliationRunCreate } from '#shared/api/schemas/integrations';
import { NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import { type AuditEvent, auditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import { adapterByKey } from './adapters/index';
import { unknownConnection } from './diagnostics';
import { offersReconciliation } from './schedule';
import type {
  Connection,
  ConnectionStore,
  ReconciliationRun,
  ReconciliationRunFilter,
  ReconciliationStore,
} from './ports';

/**
 * Reconciliation runs as the API sees them (docs/api.md section 9.3): request one (queued through
 * the outbox for the internal worker, `reconciliation.ts`), get one, list them.
 */

export interface ReconciliationDeps {
  runs: ReconciliationStore;
  connections: ConnectionStore;
  clock: Clock;
}

/**
 * The same rule as a connection's schedule (docs/api.md, "Hub schedules"): only an adapter whose
 * capabilities read the provider's payments can be reconciled, on demand as on a schedule.
 */
export async function requestReconciliation(
  deps: ReconciliationDeps,
  actor: Principal,
  tenantId: string,
  input: z.output<typeof ReconciliationRunCreate>,
): Promise<ReconciliationRun> {
  const c = await deps.connections.get(tenantId, input.connection_id);
  if (!c) throw unknownConnection();
  const adapter = adapterByKey(c.adapter_key);
  if (c.status !== 'active')
    throw new ValidationError([
      {
        path: 'connection_id',
        code: 'connection_disabled',
        message: 'the connection is disabled; PATCH status active first',
      },
    ]);
  if (!adapter || !offersReconciliation(adapter))
    throw new ValidationError([
      {
        path: 'connection_id',
        code: 'not_reconcilable',
        message: `the ${c.adapter_key} adapter reads no payments; reconcile a connection whose adapter does (GET /adapters: capabilities read_payments or reconciliation_source)`,
      },
    ]);
  const request = reconciliationRequest(deps.clock, c, input.rule_set, actor.user_id, newId());
  await deps.runs.create(request.run, request.audit, request.outbox);
  return request.run;
}

/**
 * A queued run with its `reconciliation_run.requested` audit event and the outbox event the
 * internal worker runs it on: what the API and a connection's schedule (actor null) both write.
 */
export function reconciliationRequest(
  clock: Clock,
  c: Connection,
  ruleSet: ReconciliationRun['rule_set'],
  actorId: string | null,
  id: string,
): { run: ReconciliationRun; audit: AuditEvent; outbox: OutboxEvent } {
  const now = clock.now().toISOString();
  const run: ReconciliationRun = {
    id,
    tenant_id: c.tenant_id,
    connection_id: c.id,
    adapter_key: c.adapter_key,
    rule_set: ruleSet,
    status: 'queued',
    matched: 0,
    mismatched: 0,
    missing_in_provider: 0,
    missing_locally: 0,
    exception_ids: [],
    error: null,
    requested_by: actorId,
    created_at: now,
    updated_at: now,
    completed_at: null,
  };
  const outbox: OutboxEvent = {
    event_id: newId(),
    kind: EVENT_KINDS.reconciliationRunRequested,
    tenant_id: c.tenant_id,
    idempotency_key: `reconciliation:${c.tenant_id}:${run.id}`,
    occurred_at: now,
    payload: { run_id: run.id },
  };
  const audit = auditEvent(clock, {
    tenant_id: c.tenant_id,
    event_type: 'reconciliation_run.requested',
    actor_id: actorId,
    entity_type: 'reconciliation_run',
    entity_id: run.id,
    summary: `${run.rule_set} against ${c.adapter_key} connection ${c.name}`,
    metadata: { connection_id: c.id, rule_set: run.rule_set },
  });
  return { run, audit, outbox };
}

export async function getReconciliationRun(deps: ReconciliationDeps, tenantId: string, id: string) {
  const found = await deps.runs.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return found;
}

export const listReconciliationRuns = (
  deps: ReconciliationDeps,
  tenantId: string,
  filter: ReconciliationRunFilter,
  page: PageRequest,
): Promise<Page<ReconciliationRun>> => deps.runs.list(tenantId, filter, page);
