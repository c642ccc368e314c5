import { type AccessDoc, entity } from '../entity';

/**
 * How many webhook endpoints a tenant holds (`n`): an endpoint's create adds one on the condition
 * that the count is below the maximum, its delete takes one away, each in the endpoint's own
 * transaction, so two racing creates cannot both take the 20th place.
 */
export const webhookEndpointCount = /* @__PURE__ */ entity('webhook_endpoint_count', {
  table: { pk: 'TENANT#{tenant_id}#WEBHOOK_ENDPOINT_COUNT', sk: 'COUNT' },
});

export const access = {
  entity: webhookEndpointCount,
  patterns: [
    {
      name: "Count a tenant's webhook endpoints",
      sortKey: 'equals',
      notes: 'conditional Update in the create and delete transactions: n < 20',
    },
  ],
} satisfies AccessDoc<typeof webhookEndpointCount>;
