import type { StoredEndpoint, WebhookEndpointStore, WebhookSecrets } from '#shared/domain/webhooks/ports';
import type { ConnectionSecrets } from '#shared/domain/integrations/ports';
import { storedReader } from '#shared/table/entity';
import { storedReviewItem } from '#shared/table/entities/review-item';
import { webhookEndpoint, webhookEndpointRecord } from '#shared/table/entities/webhook-endpoint';
import { webhookEndpointCount } from '#shared/table/entities/webhook-endpoint-count';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getRecord, putIf, putNew, updateOnly } from './records';
import { queryAll, queryPage } from './query';
import { transact, type WriteOp } from './transact';

const read = /* @__PURE__ */ storedReader<StoredEndpoint>()(webhookEndpointRecord);

const count = (tenantId: string, by: 1 | -1, max?: number): WriteOp => ({
  Update: {
    Key: webhookEndpointCount.key({ tenant_id: tenantId }),
    UpdateExpression: 'SET #e = :e ADD n :by',
    ExpressionAttributeNames: { '#e': 'entity' },
    ExpressionAttributeValues: {
      ':by': by,
      ':e': webhookEndpointCount.entity,
      ...(max !== undefined && { ':max': max }),
    },
    ...(max !== undefined && { ConditionExpression: 'attribute_not_exists(n) OR n < :max' }),
  },
});

/** The endpoint as written back after a read: the `updated_at` it was read with decides races. */
export const endpointPut = (next: StoredEndpoint, expectedUpdatedAt: string): WriteOp =>
  putIf(webhookEndpoint.item(next), {
    ConditionExpression: 'updated_at = :u',
    ExpressionAttributeValues: { ':u': expectedUpdatedAt },
  });

export const webhookEndpointStore = (db: Db): WebhookEndpointStore => ({
  async create(endpoint, audit, max) {
    const result = await transact(db, [
      putNew(webhookEndpoint.item(endpoint)),
      auditPut(audit),
      count(endpoint.tenant_id, 1, max),
    ]);
    if (result.ok) return 'written';
    if (result.failed.includes(2)) return 'limit';
    throw new Error('webhook endpoint id collision');
  },

  get: (tenantId, id) => getRecord(db, webhookEndpoint.key({ tenant_id: tenantId, id }), read),

  list(tenantId, page) {
    return queryPage(db, {
      scope: { list: 'webhook-endpoints', tenant_id: tenantId },
      page,
      map: read,
      ...webhookEndpoint.query('table', { tenant_id: tenantId }),
    });
  },

  async all(tenantId) {
    return (await queryAll(db, webhookEndpoint.query('table', { tenant_id: tenantId }))).map(read);
  },

  async update(next, expectedUpdatedAt, audit, review) {
    const result = await transact(db, [
      endpointPut(next, expectedUpdatedAt),
      ...(audit ? [auditPut(audit)] : []),
      ...(review ? [putNew(storedReviewItem(review))] : []),
    ]);
    return result.ok;
  },

  async remove(tenantId, id, audit) {
    const result = await transact(db, [
      {
        Delete: {
          Key: webhookEndpoint.key({ tenant_id: tenantId, id }),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      auditPut(audit),
      count(tenantId, -1),
    ]);
    return result.ok;
  },

  markFailing(tenantId, id, since) {
    // `updated_at` stays: the attempt's own outcome, written from the endpoint as it read it, must
    // still find it unchanged (an answer clears the mark, a failure keeps the same time).
    return updateOnly(db, {
      Key: webhookEndpoint.key({ tenant_id: tenantId, id }),
      UpdateExpression: 'SET failing_since = :since',
      ConditionExpression:
        'attribute_exists(pk) AND #s = :active AND (attribute_not_exists(failing_since) OR failing_since = :null)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':since': since, ':active': 'active', ':null': null },
    });
  },
});

/**
 * The endpoints' secrets in the storage of connection secrets, one entry per version under
 * `webhook_endpoint/<id>/v<n>`: the same write-only storage (the API function may put and delete,
 * only the external worker may read).
 */
export const webhookSecrets = (store: ConnectionSecrets): WebhookSecrets => {
  const name = (endpointId: string, version: number) => `webhook_endpoint/${endpointId}/v${version}`;
  return {
    put: (tenantId, endpointId, version, secret) =>
      store.put(tenantId, name(endpointId, version), { secret }),
    read: async (tenantId, endpointId, version) =>
      (await store.read(tenantId, name(endpointId, version)))?.secret,
    delete: (tenantId, endpointId, version) => store.delete(tenantId, name(endpointId, version)),
  };
};
