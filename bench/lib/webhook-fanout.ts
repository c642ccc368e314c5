import { randomBytes } from 'node:crypto';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { outboxPut } from '#functions/adapters/outbox';
import { webhookEndpointStore, webhookSecrets } from '#functions/adapters/webhook-endpoint-store';
import { webhookMessageStore } from '#functions/adapters/webhook-message-store';
import { ensureTable, localClient } from '#local/dynamodb-local';
import { createEndpoint } from '#shared/domain/webhooks/endpoints';
import { fanOut } from '#shared/domain/webhooks/fan-out';
import { newMessage, queued } from '#shared/domain/webhooks/messages';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { systemClock } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import { webhookMessage } from '#shared/table/entities/webhook-message';
import { TABLE } from '#shared/table/table';

/**
 * The webhooks part's fan-out (bench/lib/webhooks.ts): one change to 20 subscribed endpoints,
 * `BENCH_WEBHOOK_FANOUT_CHANGES` (100) changes one after another as the internal worker fans
 * them out; messages/s and the write units per message as DynamoDB bills them (2 WCU per started
 * KB of a transactional write, 1 per index copy).
 */

const FANOUT_CHANGES = Number(process.env.BENCH_WEBHOOK_FANOUT_CHANGES ?? 100);
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export const ownerOf = (tenantId: string): Principal => ({
  user_id: `bench-${tenantId}`,
  token_id: 'bench',
  email: `owner@${tenantId}.test`,
  display_name: 'Bench Owner',
  platform_roles: [],
  memberships: { [tenantId]: 'owner' },
});

export const dbOn = (endpoint: string, tableName: string): Db => ({
  doc: documentClient(localClient(endpoint)),
  tableName,
  cursorSecret: randomBytes(32).toString('hex'),
});

/** Fan-out of one change to 20 endpoints, as the internal worker runs it. */
export async function measureFanOut(endpoint: string) {
  const tableName = `bench-webhooks-fanout-${randomBytes(3).toString('hex')}`;
  await ensureTable(endpoint, tableName);
  const db = dbOn(endpoint, tableName);
  const deps = {
    endpoints: webhookEndpointStore(db),
    secrets: webhookSecrets(connectionSecretsFor({ store: 'memory', kmsKeyId: undefined })),
    messages: webhookMessageStore(db),
    clock: systemClock,
    allowLoopback: false,
  };
  const tenantId = 'bench-fanout';
  const ENDPOINTS = 20;
  for (let i = 0; i < ENDPOINTS; i++)
    await createEndpoint(deps, ownerOf(tenantId), tenantId, {
      url: `https://hooks-${i}.example.com/ops`,
      description: null,
      event_types: ['exception.created'],
      enabled: true,
    });
  const now = new Date().toISOString();
  // The exception of the first measure (2026-11-27), so that the figures compare.
  const exception = {
    id: 'x',
    tenant_id: tenantId,
    exception_type: 'payment.failed',
    severity: 'critical',
    status: 'open',
    subject_type: 'invoice',
    subject_id: 'INV-1042',
    title: 'Payment failed for INV-1042',
    summary: 'The card was declined by the issuer; the customer was told by e-mail.',
    impact_json: '{"amount":"1200.00","currency":"EUR"}',
    evidence_json: '{}',
    observation_ids: [],
    detected_at: now,
    created_at: now,
    updated_at: now,
    resolved_at: null,
    escalation: null,
  };
  let written = 0;
  const start = performance.now();
  for (let c = 0; c < FANOUT_CHANGES; c++)
    written += await fanOut(
      deps,
      workflowEventRecorded(systemClock, 'exception.created', { ...exception, id: `x-${c}` } as never),
    );
  const seconds = (performance.now() - start) / 1000;
  db.doc.destroy();

  // Write units of one message as billed: its item and outbox event, transactional, and their index copies.
  const size = (item: Record<string, unknown>) =>
    Object.entries(item).reduce(
      (n, [k, v]) =>
        n + k.length + (typeof v === 'string' ? Buffer.byteLength(v) : JSON.stringify(v ?? null).length),
      0,
    );
  const kb = (item: Record<string, unknown>) => Math.ceil(size(item) / 1024);
  const sample = queued(
    systemClock,
    newMessage(new Date(), { tenant_id: tenantId, id: 'e' }, 'exception.created', now, exception, 'm'),
  );
  const messageItem = webhookMessage.item(sample.message);
  const outboxItem = (outboxPut(sample.event) as { Put: { Item: Record<string, unknown> } }).Put.Item;
  const indexCopies = (item: Record<string, unknown>) =>
    Object.values(TABLE.indexes).filter((i) => item[i.partitionKey] !== undefined).length;
  const wcu =
    2 * kb(messageItem) +
    indexCopies(messageItem) * kb(messageItem) +
    2 * kb(outboxItem) +
    indexCopies(outboxItem) * kb(outboxItem);
  return {
    changes: FANOUT_CHANGES,
    endpoints: ENDPOINTS,
    messages: written,
    seconds: round(seconds),
    messagesPerSecond: Math.round(written / seconds),
    fanOutMsPerChange: round((seconds * 1000) / FANOUT_CHANGES, 1),
    messageItemBytes: size(messageItem),
    outboxItemBytes: size(outboxItem),
    writeUnitsPerMessage: wcu,
  };
}
