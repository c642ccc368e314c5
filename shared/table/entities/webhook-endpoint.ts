import { type AccessDoc, entity, record } from '../entity';
import { editable } from '../editable';

/**
 * A webhook endpoint (docs/api.md, "Event subscriptions"): where a tenant's own system hears the
 * event types it subscribes to. A tenant has at most 20, so the fan-out reads them all (one Query
 * of the partition) and picks the subscribers in code; no index is needed.
 */
export const webhookEndpoint = /* @__PURE__ */ entity('webhook_endpoint', {
  table: { pk: 'TENANT#{tenant_id}#WEBHOOK_ENDPOINT', sk: '{id}' },
});

/** The endpoint record, in the order the API returns it (WebhookEndpointRead derives from it). */
export const webhookEndpointRecord = /* @__PURE__ */ record(webhookEndpoint, {
  id: 'string',
  tenant_id: 'string',
  url: 'string',
  description: 'string|null',
  event_types: 'string[]',
  enabled: 'boolean',
  status: 'enum',
  disabled_reason: 'enum|null',
  secret_rotated_at: 'datetime|null',
  created_at: 'datetime',
  updated_at: 'datetime',
  /**
   * The secrets live in write-only storage under `<id>#v<n>`; the item keeps which version signs
   * now, and until when the one before it signs too (24 h after a rotation).
   */
  secret_version: { type: 'int', hidden: true },
  previous_secret_until: { type: 'datetime|null', hidden: true },
  /** When the endpoint's current run of failures began (null after a delivery): 5 days of it disable it. */
  failing_since: { type: 'datetime|null', hidden: true },
});

/**
 * What an endpoint's PATCH may change (`enabled` moves `status` too): WebhookEndpointUpdate and
 * updateEndpoint derive from it.
 */
export const webhookEndpointEditable = /* @__PURE__ */ editable(webhookEndpointRecord, [
  'url',
  'description',
  'event_types',
  'enabled',
]);

export const access = {
  entity: webhookEndpoint,
  labels: { id: 'endpoint_id' },
  patterns: [
    { name: 'Get webhook endpoint', sortKey: 'equals' },
    {
      name: "List a tenant's webhook endpoints (the list; the fan-out reads them all)",
      notes: 'at most 20 a tenant; subscriptions are matched in code',
    },
  ],
} satisfies AccessDoc<typeof webhookEndpoint>;
