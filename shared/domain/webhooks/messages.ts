import { ConflictError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { PageRequest } from '#shared/kernel/page';
import type { SubscribableEventType } from '#shared/kernel/event-types';
import { WEBHOOK_LIMITS } from '#shared/api/schemas/webhooks';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { Principal } from '#shared/kernel/policy';
import { type AuditEvent, auditEvent } from '#shared/domain/audit';
import type {
  QueuedMessage,
  StoredEndpoint,
  StoredMessage,
  WebhookEndpointStore,
  WebhookMessage,
  WebhookMessageStatus,
  WebhookMessageStore,
} from './ports';

/** The delivery log, resend, recover and the test send (docs/api.md, "Event subscriptions"). */

export interface MessageDeps {
  endpoints: Pick<WebhookEndpointStore, 'get'>;
  messages: WebhookMessageStore;
  clock: Clock;
}

const DAY_MS = 24 * 3600 * 1000;
const KEEP_MS = WEBHOOK_LIMITS.keepDays * DAY_MS;

/** The record the API reads: the body and the bookkeeping left off. */
export const publicMessage = ({
  tenant_id: _t,
  body: _b,
  ttl: _ttl,
  round_start: _r,
  lease_until: _l,
  ...read
}: StoredMessage): WebhookMessage => read;

/** The outbox event that has a message's next attempt made (external queue). */
export const deliveryRequested = (clock: Clock, m: StoredMessage): OutboxEvent => {
  const eventId = newId();
  return {
    event_id: eventId,
    kind: EVENT_KINDS.webhookDeliveryRequested,
    tenant_id: m.tenant_id,
    idempotency_key: `webhook-delivery:${m.tenant_id}:${m.id}:${m.attempts.length}`,
    occurred_at: clock.now().toISOString(),
    payload: { message_id: m.id, endpoint_id: m.endpoint_id },
  };
};

/** A new message for an endpoint: the body every attempt sends, kept 30 days. */
export function newMessage(
  now: Date,
  endpoint: Pick<StoredEndpoint, 'tenant_id' | 'id'>,
  type: SubscribableEventType,
  timestamp: string,
  data: unknown,
  id: string,
): StoredMessage {
  return {
    id,
    endpoint_id: endpoint.id,
    event_type: type,
    status: 'pending',
    attempts: [],
    next_attempt_at: now.toISOString(),
    created_at: now.toISOString(),
    tenant_id: endpoint.tenant_id,
    body: JSON.stringify({ type, timestamp, data }),
    ttl: Math.floor((now.getTime() + KEEP_MS) / 1000),
    round_start: 0,
    lease_until: null,
  };
}

export const queued = (clock: Clock, message: StoredMessage): QueuedMessage => ({
  message,
  event: deliveryRequested(clock, message),
});

async function endpointOf(deps: MessageDeps, tenantId: string, endpointId: string) {
  const endpoint = await deps.endpoints.get(tenantId, endpointId);
  if (!endpoint) throw new NotFoundError();
  return endpoint;
}

export async function listMessages(
  deps: MessageDeps,
  tenantId: string,
  endpointId: string,
  status: WebhookMessageStatus | undefined,
  page: PageRequest,
) {
  await endpointOf(deps, tenantId, endpointId);
  const found = await deps.messages.list(tenantId, endpointId, status, page);
  return { ...found, items: found.items.map(publicMessage) };
}

/**
 * The message back to `pending`, its attempts kept, with the outbox event of its next attempt. An
 * attempt in flight keeps its claim: the requeued copy waits for it to end rather than sending
 * beside it, and that attempt's outcome joins the log without undoing the requeue (delivery.ts).
 */
const requeued = (clock: Clock, m: StoredMessage): StoredMessage => {
  const now = clock.now().toISOString();
  return {
    ...m,
    status: 'pending',
    next_attempt_at: now,
    round_start: m.attempts.length,
    lease_until: m.lease_until && m.lease_until > now ? m.lease_until : null,
  };
};

/** The audit event of a request that queues messages (test, resend, recover). */
const queuedAudit = (
  deps: MessageDeps,
  actor: Principal,
  tenantId: string,
  entity: { type: 'webhook_endpoint' | 'webhook_message'; id: string },
  verb: string,
  metadata: Record<string, unknown>,
) =>
  auditEvent(deps.clock, {
    tenant_id: tenantId,
    event_type: `${entity.type}.${verb}`,
    actor_id: actor.user_id,
    entity_type: entity.type,
    entity_id: entity.id,
    summary: `${entity.type} ${verb}`,
    metadata,
  });

/**
 * Resend one message of this endpoint in this tenant (404 otherwise, also for another tenant's),
 * whatever its status: delivered or failed, or still on its way (pending, retrying), which then
 * goes now with a fresh retry schedule instead of waiting for its next attempt. One attempt at a
 * time still holds: an attempt in flight finishes first (see `requeued`).
 */
export async function resendMessage(
  deps: MessageDeps,
  actor: Principal,
  tenantId: string,
  endpointId: string,
  messageId: string,
) {
  await endpointOf(deps, tenantId, endpointId);
  const m = await deps.messages.get(tenantId, messageId);
  if (!m || m.endpoint_id !== endpointId) throw new NotFoundError();
  const audit = queuedAudit(deps, actor, tenantId, { type: 'webhook_message', id: m.id }, 'resent', {
    endpoint_id: endpointId,
  });
  if (!(await deps.messages.requeue(queued(deps.clock, requeued(deps.clock, m)), m, audit)))
    throw new ConflictError('The message changed meanwhile; read it again.');
  return { message_id: m.id };
}

/** Recover: resend every failed message created since `since` (at most 30 days back, 422 otherwise). */
export async function recoverMessages(
  deps: MessageDeps,
  actor: Principal,
  tenantId: string,
  endpointId: string,
  since: string,
) {
  await endpointOf(deps, tenantId, endpointId);
  const now = deps.clock.now().getTime();
  if (Date.parse(since) < now - KEEP_MS)
    throw new ValidationError([
      { path: 'since', code: 'too_old', message: `must be at most ${WEBHOOK_LIMITS.keepDays} days back` },
    ]);
  // A future `since` finds nothing, and a 202 with nothing queued would read as "nothing failed".
  if (Date.parse(since) > now)
    throw new ValidationError([{ path: 'since', code: 'in_future', message: 'must not be in the future' }]);
  const failed = await deps.messages.failedSince(tenantId, endpointId, new Date(since).toISOString());
  // The audit event rides with the first message's requeue: a recover that finds none changes nothing.
  let audit: AuditEvent | undefined = queuedAudit(
    deps,
    actor,
    tenantId,
    { type: 'webhook_endpoint', id: endpointId },
    'recovered',
    {
      since,
      failed: failed.length,
    },
  );
  let count = 0;
  for (const m of failed)
    if (await deps.messages.requeue(queued(deps.clock, requeued(deps.clock, m)), m, audit)) {
      count++;
      audit = undefined;
    }
  return { queued: count };
}

/** Send `webhook.test` to the endpoint now, whatever it subscribes to. */
export async function testEndpoint(
  deps: MessageDeps,
  actor: Principal,
  tenantId: string,
  endpointId: string,
) {
  const endpoint = await endpointOf(deps, tenantId, endpointId);
  const now = deps.clock.now();
  const data = {
    endpoint_id: endpoint.id,
    message: 'A test message from ops-platform.',
    sent_at: now.toISOString(),
  };
  const m = newMessage(now, endpoint, 'webhook.test', now.toISOString(), data, newId());
  const audit = queuedAudit(deps, actor, tenantId, { type: 'webhook_endpoint', id: endpoint.id }, 'tested', {
    message_id: m.id,
  });
  await deps.messages.createAll([queued(deps.clock, m)], audit);
  return { message_id: m.id };
}
