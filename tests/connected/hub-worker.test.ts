import type { SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import type { createStores } from '#functions/adapters/stores';
import { hubHandlers } from '#functions/workers/hub';
import { changeDocumentStatus, createDocument } from '#shared/domain/documents/use-cases';
import { requestReconciliation } from '#shared/domain/integrations/reconciliation-requests';
import {
  createConnection,
  deleteConnection,
  updateConnection,
} from '#shared/domain/integrations/connections';
import type { OutboxEvent } from '#shared/domain/outbox';
import { newId, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS, LOG_EVENTS } from '#shared/kernel/names';
import { ProviderSandbox } from '#local/provider-sandbox';
import { hubDeps, LEDGERLY_REQUEST, LEDGERLY_SECRET } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { principal } from '#tests/support/fixtures';
import { captureLogLines } from '#tests/support/logs';

/**
 * The internal worker's integration hub kinds (functions/workers/hub.ts) over DynamoDB Local and
 * the loopback provider sandbox: what a diagnostics run and a reconciliation run tell operators
 * in the log, and which errors go back to the queue.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const sandbox = new ProviderSandbox();
beforeAll(async () => {
  ({ db, stores } = await freshDb());
  await sandbox.listen();
});
afterAll(() => sandbox.stop());
afterEach(() => {
  vi.restoreAllMocks();
});

const manager = principal('manager-1', {}, true);
const newTenant = () => `t-${newId().slice(-12)}`;
const deps = () => hubDeps(db, stores, `${sandbox.url}/providers`, 5000);
const LEDGERLY = LEDGERLY_REQUEST;
const SECRET = LEDGERLY_SECRET;
const record = { messageId: 'm', attributes: {} } as unknown as SQSRecord;

/** The log lines written while `fn` runs. */
const logged = async (fn: () => Promise<void>) => {
  const lines = captureLogLines();
  await fn();
  vi.restoreAllMocks();
  return lines;
};

const diagnose = (tenantId: string, connectionId: string, d = deps()) =>
  hubHandlers(d)[EVENT_KINDS.integrationDiagnosticsRequested]!(
    {
      event_id: newId(),
      kind: EVENT_KINDS.integrationDiagnosticsRequested,
      tenant_id: tenantId,
      idempotency_key: `diagnostics:${newId()}`,
      occurred_at: new Date().toISOString(),
      payload: { connection_id: connectionId },
    },
    record,
  );

describe('a diagnostics run requested by a review decision', () => {
  it('logs the connection, the failed checks and the health it leaves', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, LEDGERLY);
    expect(await logged(() => diagnose(tenantId, c.id))).toEqual([
      expect.objectContaining({
        level: 'info',
        event: LOG_EVENTS.integrationDiagnostics,
        tenant_id: tenantId,
        connection_id: c.id,
        failed: ['secret_missing'],
        health: expect.not.stringMatching(/^healthy$/),
      }),
    ]);
    await updateConnection(deps(), manager, tenantId, c.id, { secret: SECRET });
    expect(await logged(() => diagnose(tenantId, c.id))).toEqual([
      expect.objectContaining({ connection_id: c.id, failed: [], health: 'healthy' }),
    ]);
  });

  it('a connection deleted since the decision is nothing to check; any other error goes back to the queue', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, LEDGERLY);
    await deleteConnection(deps(), manager, tenantId, c.id);
    expect(await logged(() => diagnose(tenantId, c.id))).toEqual([]);

    const failing = {
      ...deps(),
      connections: {
        ...connectionStore(db),
        get: async () => {
          throw new Error('ProvisionedThroughputExceededException');
        },
      },
    };
    await expect(diagnose(tenantId, c.id, failing)).rejects.toThrow('ProvisionedThroughputExceeded');
  });
});

describe('a reconciliation run', () => {
  const requested = async (tenantId: string, connectionId: string): Promise<OutboxEvent> => {
    const run = await requestReconciliation(deps(), manager, tenantId, {
      connection_id: connectionId,
      rule_set: 'payment_reconciliation',
    });
    return {
      event_id: newId(),
      kind: EVENT_KINDS.reconciliationRunRequested,
      tenant_id: tenantId,
      idempotency_key: `reconciliation:${tenantId}:${run.id}`,
      occurred_at: run.created_at,
      payload: { run_id: run.id },
    };
  };
  const reconcile = (event: OutboxEvent) =>
    hubHandlers(deps())[EVENT_KINDS.reconciliationRunRequested]!(event, record);

  it('completed: logged with its counts; a redelivery of the finished run logs nothing', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, { ...LEDGERLY, secret: SECRET });
    const docs = { documents: stores.documents, zones: stores.zones, clock: systemClock };
    const payment = await createDocument(docs, manager, tenantId, {
      document_type: 'payment',
      number: 'PAY-1002',
      counterparty: 'Globex Ltd',
      currency: 'EUR',
      amount: '240.00',
      issued_on: '2026-01-31',
    });
    await changeDocumentStatus(docs, manager, tenantId, payment.id, { status: 'open' });
    const event = await requested(tenantId, c.id);
    const lines = await logged(() => reconcile(event));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        event: LOG_EVENTS.reconciliationCompleted,
        tenant_id: tenantId,
        run_id: event.payload.run_id,
        connection_id: c.id,
        matched: 0,
        mismatched: 1,
        missing_locally: 1,
        missing_in_provider: expect.any(Number),
      }),
    ]);
    expect(await logged(() => reconcile(event))).toEqual([]);
  });

  it('failed: logged as a warning with the reason', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, { ...LEDGERLY, secret: SECRET });
    const event = await requested(tenantId, c.id);
    await deleteConnection(deps(), manager, tenantId, c.id);
    expect(await logged(() => reconcile(event))).toEqual([
      expect.objectContaining({
        level: 'warn',
        event: LOG_EVENTS.reconciliationFailed,
        run_id: event.payload.run_id,
        error: 'the connection was deleted',
      }),
    ]);
  });
});
