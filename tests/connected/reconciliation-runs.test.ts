import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { toOutboxEvent } from '#functions/adapters/outbox';
import { hubStore } from '#functions/adapters/hub-store';
import type { createStores } from '#functions/adapters/stores';
import { changeDocumentStatus, createDocument } from '#shared/domain/documents/use-cases';
import { runReconciliation } from '#shared/domain/integrations/reconciliation';
import {
  getReconciliationRun,
  listReconciliationRuns,
  requestReconciliation,
} from '#shared/domain/integrations/reconciliation-requests';
import {
  createConnection,
  deleteConnection,
  updateConnection,
} from '#shared/domain/integrations/connections';
import type { OutboxEvent } from '#shared/domain/outbox';
import { NotFoundError, ValidationError } from '#shared/kernel/errors';
import { EVENT_KINDS } from '#shared/kernel/names';
import { newId, systemClock } from '#shared/kernel/ids';
import { ProviderSandbox } from '#local/provider-sandbox';
import { ACCOUNTING_TARGETS, hubDeps, LEDGERLY_REQUEST } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { drain, principal } from '#tests/support/fixtures';

/**
 * Reconciliation runs over DynamoDB Local, with the provider sandbox on loopback as the provider
 * (docs/api.md section 9.3): which connections may be reconciled, what a run compares, and how a
 * run ends when the connection, the endpoint or the provider is not there.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const sandbox = new ProviderSandbox();
beforeAll(async () => {
  process.env.OPS_LOCAL_QUIET = '1';
  ({ db, stores } = await freshDb());
  await sandbox.listen();
});
afterAll(() => sandbox.stop());

const manager = principal('manager-1', {}, true);
const newTenant = () => `t-${newId().slice(-12)}`;
/** `sandboxed: false`: no provider URL, as in the cloud, where no records are read. */
const deps = (sandboxed = true) => hubDeps(db, stores, sandboxed ? `${sandbox.url}/providers` : undefined);
const LEDGERLY = { adapter_key: 'ledgerly', name: 'Books', config: LEDGERLY_REQUEST.config };

const fieldErrors = async (p: Promise<unknown>) => {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ValidationError);
  return (err as ValidationError).errors;
};
const deliveryOf = (tenantId: string, runId: string): OutboxEvent => ({
  event_id: newId(),
  kind: EVENT_KINDS.reconciliationRunRequested,
  tenant_id: tenantId,
  idempotency_key: `reconciliation:${tenantId}:${runId}`,
  occurred_at: new Date().toISOString(),
  payload: { run_id: runId },
});
const request = (tenantId: string, connectionId: string) =>
  requestReconciliation(deps(), manager, tenantId, {
    connection_id: connectionId,
    rule_set: 'payment_reconciliation',
  });
const auditOf = (tenantId: string, id: string) =>
  drain((cursor) =>
    stores.audit.list(tenantId, { entity_type: 'reconciliation_run', entity_id: id }, { limit: 100, cursor }),
  );

/** A tenant's outbox events of one kind, as DynamoDB holds them. */
const outboxOf = async (tenantId: string, kind: string) =>
  (
    (
      await db.doc.send(
        new ScanCommand({
          TableName: db.tableName,
          FilterExpression: 'tenant_id = :t AND kind = :k',
          ExpressionAttributeValues: { ':t': tenantId, ':k': kind },
        }),
      )
    ).Items ?? []
  ).map(toOutboxEvent);

async function documentIn(
  tenantId: string,
  document_type: 'invoice' | 'payment' | 'credit_note',
  number: string,
  amount: string,
  statuses: ('open' | 'paid' | 'void')[],
) {
  const docDeps = { documents: stores.documents, zones: stores.zones, clock: systemClock };
  const d = await createDocument(docDeps, manager, tenantId, {
    document_type,
    number,
    counterparty: 'Globex Ltd',
    currency: 'EUR',
    amount,
    issued_on: '2026-01-31',
  });
  for (const status of statuses) await changeDocumentStatus(docDeps, manager, tenantId, d.id, { status });
  return d;
}

describe('requesting a reconciliation run', () => {
  it('queues a run of an active accounting or bank feed connection, with its audit event', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, LEDGERLY);
    const run = await request(tenantId, c.id);
    expect(run).toEqual({
      id: run.id,
      tenant_id: tenantId,
      connection_id: c.id,
      adapter_key: 'ledgerly',
      rule_set: 'payment_reconciliation',
      status: 'queued',
      matched: 0,
      mismatched: 0,
      missing_in_provider: 0,
      missing_locally: 0,
      exception_ids: [],
      error: null,
      requested_by: manager.user_id,
      created_at: run.created_at,
      updated_at: run.created_at,
      completed_at: null,
    });
    expect(await getReconciliationRun(deps(), tenantId, run.id)).toEqual(run);
    expect((await listReconciliationRuns(deps(), tenantId, {}, { limit: 10 })).items).toEqual([run]);
    const [event] = await auditOf(tenantId, run.id);
    expect(event).toMatchObject({
      event_type: 'reconciliation_run.requested',
      actor_id: manager.user_id,
      summary: 'payment_reconciliation against ledgerly connection Books',
      metadata_json: JSON.stringify({ connection_id: c.id, rule_set: 'payment_reconciliation' }),
    });
    // The internal worker's run is queued through the outbox, once per run.
    expect(
      (await outboxOf(tenantId, EVENT_KINDS.reconciliationRunRequested)).map((e) => [
        e.idempotency_key,
        e.payload,
      ]),
    ).toEqual([[`reconciliation:${tenantId}:${run.id}`, { run_id: run.id }]]);
    await expect(getReconciliationRun(deps(), tenantId, newId())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('is a 422 on connection_id for an unknown or a disabled connection, or one whose adapter reads no payments (nothing stored)', async () => {
    const tenantId = newTenant();
    expect(await fieldErrors(request(tenantId, newId()))).toEqual([
      expect.objectContaining({ path: 'connection_id', code: 'unknown_connection' }),
    ]);
    const mail = await createConnection(deps(), manager, tenantId, {
      adapter_key: 'email',
      name: 'Mail',
      config: { from_address: 'ops@acme.example' },
    });
    // Tallybook is an accounting connection that only books: its adapter reads no payments, so
    // it is refused on demand as its schedule is (one rule, the adapter's capabilities).
    const tally = await createConnection(deps(), manager, tenantId, {
      adapter_key: 'tallybook',
      name: 'Tally',
      config: ACCOUNTING_TARGETS.tallybook.config,
    });
    for (const c of [mail, tally])
      expect(await fieldErrors(request(tenantId, c.id))).toEqual([
        {
          path: 'connection_id',
          code: 'not_reconcilable',
          message: `the ${c.adapter_key} adapter reads no payments; reconcile a connection whose adapter does (GET /adapters: capabilities read_payments or reconciliation_source)`,
        },
      ]);
    expect((await listReconciliationRuns(deps(), tenantId, {}, { limit: 10 })).items).toEqual([]);
    await updateConnection(deps(), manager, tenantId, mail.id, { status: 'disabled' });
    const books = await createConnection(deps(), manager, tenantId, LEDGERLY);
    await updateConnection(deps(), manager, tenantId, books.id, { status: 'disabled' });
    for (const id of [books.id, mail.id])
      expect(await fieldErrors(request(tenantId, id))).toEqual([
        {
          path: 'connection_id',
          code: 'connection_disabled',
          message: 'the connection is disabled; PATCH status active first',
        },
      ]);
  });
});

describe('a reconciliation run in the internal worker', () => {
  it('compares open and paid invoices and payments with the provider records, records the success and finishes once', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, LEDGERLY);
    await documentIn(tenantId, 'payment', 'PAY-1', '10.00', ['open']);
    await documentIn(tenantId, 'invoice', 'INV-1', '20.00', ['open', 'paid']);
    const differs = await documentIn(tenantId, 'invoice', 'INV-2', '30.00', ['open']);
    await documentIn(tenantId, 'payment', 'PAY-DRAFT', '1.00', []);
    await documentIn(tenantId, 'payment', 'PAY-VOID', '1.00', ['open', 'void']);
    await documentIn(tenantId, 'invoice', 'INV-LOCAL', '5.00', ['open']);
    await documentIn(tenantId, 'credit_note', 'CN-1', '2.00', ['open']);
    sandbox.setProviderRecords(c.id, [
      { external_id: 'p1', document_type: 'payment', number: 'PAY-1', amount: '10.00', currency: 'EUR' },
      { external_id: 'i1', document_type: 'invoice', number: 'INV-1', amount: '20.00', currency: 'EUR' },
      { external_id: 'i2', document_type: 'invoice', number: 'INV-2', amount: '31.00', currency: 'EUR' },
      { external_id: 'd1', document_type: 'payment', number: 'PAY-DRAFT', amount: '1.00', currency: 'EUR' },
      { external_id: 'v1', document_type: 'payment', number: 'PAY-VOID', amount: '1.00', currency: 'EUR' },
      // Credit notes are not part of payment_reconciliation.
      { external_id: 'c1', document_type: 'credit_note', number: 'CN-1', amount: '2.00', currency: 'EUR' },
    ]);
    const run = await request(tenantId, c.id);
    const done = await runReconciliation(deps(), deliveryOf(tenantId, run.id), 1);
    expect(done).toMatchObject({
      status: 'completed',
      matched: 2,
      mismatched: 1,
      missing_in_provider: 1,
      missing_locally: 3,
      error: null,
    });
    expect(done!.completed_at).not.toBeNull();
    expect(await getReconciliationRun(deps(), tenantId, run.id)).toEqual(done);
    const exceptions = await drain((cursor) => stores.exceptions.list(tenantId, {}, { limit: 100, cursor }));
    expect(exceptions.map((e) => [e.id, e.subject_id, e.exception_type])).toEqual([
      [done!.exception_ids[0], differs.id, 'reconciliation.amount_mismatch'],
    ]);
    const [exception] = exceptions;
    const exceptionEvents = await drain((cursor) =>
      stores.audit.list(
        tenantId,
        { entity_type: 'exception', entity_id: exception!.id },
        { limit: 100, cursor },
      ),
    );
    expect(exceptionEvents).toEqual([
      expect.objectContaining({
        event_type: 'exception.created',
        actor_id: null,
        summary: exception!.title,
        metadata_json: JSON.stringify({
          exception_type: 'reconciliation.amount_mismatch',
          severity: 'warning',
          run_id: run.id,
        }),
      }),
    ]);
    const workflowEvents = (await outboxOf(tenantId, EVENT_KINDS.workflowEventRecorded)).filter(
      (e) => e.payload.entity_id === exception!.id,
    );
    expect(workflowEvents.map((e) => e.payload.event_type)).toEqual(['exception.created']);
    expect((await hubStore(db).health(tenantId, c.id))?.last_success_at).not.toBeNull();
    const events = await auditOf(tenantId, run.id);
    expect(events.find((e) => e.event_type === 'reconciliation_run.completed')).toMatchObject({
      actor_id: null,
      summary: 'matched 2, mismatched 1, missing in provider 1, missing locally 3',
    });
    // A second delivery of a finished run does nothing.
    expect(await runReconciliation(deps(), deliveryOf(tenantId, run.id), 2)).toBeUndefined();
    expect(await runReconciliation(deps(), deliveryOf(tenantId, newId()), 1)).toBeUndefined();
  });

  it('retries a provider failure through the queue and fails the run on the last attempt, with the failure on the health record', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, LEDGERLY);
    const run = await request(tenantId, c.id);
    sandbox.scriptProvider(c.id, [503, 502]);
    await expect(runReconciliation(deps(), deliveryOf(tenantId, run.id), 2)).rejects.toThrow(
      'provider records: HTTP 503',
    );
    expect(await hubStore(db).health(tenantId, c.id)).toMatchObject({
      last_success_at: null,
      last_failure_reason: 'reconciliation: HTTP 503',
    });
    expect((await getReconciliationRun(deps(), tenantId, run.id))?.status).toBe('queued');
    const failed = await runReconciliation(deps(), deliveryOf(tenantId, run.id), 3);
    expect(failed).toMatchObject({ status: 'failed', error: 'the provider did not answer: HTTP 502' });
    expect(failed!.completed_at).not.toBeNull();
    const events = await auditOf(tenantId, run.id);
    expect(events.find((e) => e.event_type === 'reconciliation_run.failed')).toMatchObject({
      actor_id: null,
      summary: 'the provider did not answer: HTTP 502',
    });
  });

  it('fails the run when the connection was deleted or the deployment names no provider endpoint', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, LEDGERLY);
    const cloud = await request(tenantId, c.id);
    expect(await runReconciliation(deps(false), deliveryOf(tenantId, cloud.id), 1)).toMatchObject({
      status: 'failed',
      error: 'no provider endpoint is configured in this deployment',
    });
    const orphan = await request(tenantId, c.id);
    await deleteConnection(deps(), manager, tenantId, c.id);
    expect(await runReconciliation(deps(), deliveryOf(tenantId, orphan.id), 1)).toMatchObject({
      status: 'failed',
      error: 'the connection was deleted',
    });
    expect(await hubStore(db).health(tenantId, c.id)).toBeUndefined();
  });
});
