import { randomBytes } from 'node:crypto';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { webhookEndpointStore, webhookSecrets } from '#functions/adapters/webhook-endpoint-store';
import { webhookMessageStore } from '#functions/adapters/webhook-message-store';
import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import { outboxPut } from '#functions/adapters/outbox';
import { createEndpoint } from '#shared/domain/webhooks/endpoints';
import { fanOut } from '#shared/domain/webhooks/fan-out';
import { newMessage, queued } from '#shared/domain/webhooks/messages';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { systemClock } from '#shared/kernel/ids';
import { webhookMessage } from '#shared/table/entities/webhook-message';
import { TABLE } from '#shared/table/table';
import { ensureTable, localClient, startDynamoLocal } from '#local/dynamodb-local';

/**
 * Webhook fan-out (`npx tsx bench/webhooks.ts [changes]`): one tenant with 20 endpoints that all
 * subscribe to `exception.created`, and `changes` recorded changes fanned out one after another
 * as the internal worker does (read the endpoints, one transaction of 20 messages and their 20
 * outbox events), in DynamoDB Local. Measures messages written per second and the write units
 * per message, computed from the items' sizes as DynamoDB bills them: a transactional write costs
 * 2 WCU per started KB of the item, and each index that holds a copy 1 WCU per started KB.
 */
const CHANGES = Number(process.argv[2] ?? 100);
const ENDPOINTS = 20;
const dynamo = await startDynamoLocal({});
const tableName = 'bench-webhooks';
await ensureTable(dynamo.endpoint, tableName);
const db: Db = {
  doc: documentClient(localClient(dynamo.endpoint)),
  tableName,
  cursorSecret: randomBytes(32).toString('hex'),
};
const deps = {
  endpoints: webhookEndpointStore(db),
  secrets: webhookSecrets(localConnectionSecrets(undefined)),
  messages: webhookMessageStore(db),
  clock: systemClock,
  allowLoopback: false,
};
const tenantId = 'bench-tenant';
const admin = {
  user_id: 'bench',
  token_id: 't',
  email: 'b@x',
  display_name: 'b',
  platform_roles: ['platform_admin' as const],
  memberships: {},
};
for (let i = 0; i < ENDPOINTS; i++)
  await createEndpoint(deps, admin, tenantId, {
    url: `https://hooks-${i}.example.com/ops`,
    description: null,
    event_types: ['exception.created'],
    enabled: true,
  });

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
  detected_at: new Date().toISOString(),
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  resolved_at: null,
  escalation: null,
};

let written = 0;
const start = performance.now();
for (let c = 0; c < CHANGES; c++)
  written += await fanOut(
    deps,
    workflowEventRecorded(systemClock, 'exception.created', { ...exception, id: `x-${c}` }),
  );
const seconds = (performance.now() - start) / 1000;

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
  newMessage(
    new Date(),
    { tenant_id: tenantId, id: 'e' },
    'exception.created',
    new Date().toISOString(),
    exception,
    'm',
  ),
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

console.log(
  JSON.stringify(
    {
      changes: CHANGES,
      endpoints: ENDPOINTS,
      messages: written,
      seconds: Number(seconds.toFixed(2)),
      messages_per_second: Math.round(written / seconds),
      fan_out_ms_per_change: Number(((seconds * 1000) / CHANGES).toFixed(1)),
      message_item_bytes: size(messageItem),
      outbox_item_bytes: size(outboxItem),
      write_units_per_message: wcu,
      read_units_per_change:
        'one Query of the endpoint partition (20 items, eventually consistent: 0.5 RCU per 4 KB)',
    },
    null,
    2,
  ),
);
await dynamo.stop();
