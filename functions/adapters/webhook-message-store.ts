import type { StoredMessage, WebhookMessageStore } from '#shared/domain/webhooks/ports';
import { storedReader } from '#shared/table/entity';
import { webhookMessage, webhookMessageRecord } from '#shared/table/entities/webhook-message';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getRecord, putIf, putNew } from './records';
import { queryAll, queryPage } from './query';
import { transact, type WriteOp } from './transact';
import { outboxPut } from './outbox';
import { timerPut } from './timer-store';
import { endpointPut } from './webhook-endpoint-store';
import { webhookEndpoint } from '#shared/table/entities/webhook-endpoint';
import { storedReviewItem } from '#shared/table/entities/review-item';

const read = /* @__PURE__ */ storedReader<StoredMessage>()(webhookMessageRecord);

/** The message as it was read: the same attempts and status (every attempt and requeue changes one). */
const asRead = (m: Pick<StoredMessage, 'status' | 'attempts'>) => ({
  ConditionExpression: '#s = :s AND size(attempts) = :n',
  ExpressionAttributeNames: { '#s': 'status' },
  ExpressionAttributeValues: { ':s': m.status, ':n': m.attempts.length },
});

const messagePut = (m: StoredMessage, condition?: ReturnType<typeof asRead>): WriteOp =>
  condition ? putIf(webhookMessage.item(m), condition) : putNew(webhookMessage.item(m));

export const webhookMessageStore = (db: Db): WebhookMessageStore => ({
  get: (tenantId, id) => getRecord(db, webhookMessage.key({ tenant_id: tenantId, id }), read),

  list(tenantId, endpointId, status, page) {
    const values = { tenant_id: tenantId, endpoint_id: endpointId };
    return queryPage(db, {
      scope: { list: 'webhook-messages', tenant_id: tenantId, endpoint_id: endpointId, status: status ?? '' },
      page,
      map: read,
      ...(status
        ? webhookMessage.query('gsi2', { ...values, status })
        : webhookMessage.query('gsi1', values)),
    });
  },

  async failedSince(tenantId, endpointId, since) {
    // No floor on the sort key: a fanned-out message's id carries its change's time, which can be
    // well before the message was created (the relay's and the worker's lag), so an id floor at
    // `since` missed messages created after it. The failed ones of 30 days (their TTL) are read.
    const items = await queryAll(db, {
      ...webhookMessage.query('gsi2', { tenant_id: tenantId, endpoint_id: endpointId, status: 'failed' }),
      forward: true,
    });
    return items.map(read).filter((m) => m.created_at >= since);
  },

  async createAll(queued, audit) {
    const result = await transact(db, [
      ...queued.flatMap(({ message, event }) => [messagePut(message), outboxPut(event)]),
      ...(audit ? [auditPut(audit)] : []),
    ]);
    return result.ok ? 'written' : 'duplicate';
  },

  async requeue({ message, event }, expected, audit) {
    const ops = [
      messagePut(message, asRead(expected)),
      outboxPut(event),
      ...(audit ? [auditPut(audit)] : []),
    ];
    return (await transact(db, ops)).ok;
  },

  async claim(m, now, leaseUntil, probe) {
    // The probe slot is an attribute of the endpoint item that no record declares: the endpoint's
    // readers never see it, and its next Put (a settled outcome, a PATCH) drops it.
    const slot: WriteOp[] = probe
      ? [
          {
            Update: {
              Key: webhookEndpoint.key({ tenant_id: m.tenant_id, id: probe.endpointId }),
              UpdateExpression: 'SET probe_until = :until',
              ConditionExpression:
                'attribute_exists(pk) AND (attribute_not_exists(probe_until) OR probe_until < :now)',
              ExpressionAttributeValues: { ':until': probe.until, ':now': now },
            },
          },
        ]
      : [];
    const result = await transact(db, [
      {
        Update: {
          Key: webhookMessage.key({ tenant_id: m.tenant_id, id: m.id }),
          UpdateExpression: 'SET lease_until = :lease',
          ConditionExpression:
            '#s IN (:pending, :retrying) AND size(attempts) = :n AND next_attempt_at <= :now AND (attribute_not_exists(lease_until) OR lease_until = :null OR lease_until < :now)',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: {
            ':lease': leaseUntil,
            ':pending': 'pending',
            ':retrying': 'retrying',
            ':n': m.attempts.length,
            ':now': now,
            ':null': null,
          },
        },
      },
      ...slot,
    ]);
    if (result.ok) return true;
    return probe && !result.failed.includes(0) ? 'busy' : false;
  },

  async settle({ message, claimedAttempts, unchanged, timer: retry, endpoint }) {
    const ops: WriteOp[] = [
      putIf(
        webhookMessage.item(message),
        unchanged
          ? {
              ConditionExpression:
                'size(attempts) = :n AND #s = :s AND next_attempt_at = :next AND round_start = :round',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: {
                ':n': claimedAttempts,
                ':s': unchanged.status,
                ':next': unchanged.next_attempt_at,
                ':round': unchanged.round_start,
              },
            }
          : {
              ConditionExpression: 'size(attempts) = :n',
              ExpressionAttributeValues: { ':n': claimedAttempts },
            },
      ),
    ];
    if (retry) ops.push(timerPut(retry));
    if (endpoint) {
      ops.push(endpointPut(endpoint.next, endpoint.expectedUpdatedAt));
      if (endpoint.audit) ops.push(auditPut(endpoint.audit));
      if (endpoint.review) ops.push(putNew(storedReviewItem(endpoint.review)));
    }
    return (await transact(db, ops)).ok;
  },
});
