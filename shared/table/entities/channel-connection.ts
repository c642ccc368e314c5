import { type AccessDoc, entity } from '../entity';

/**
 * A tenant's switch for one notification channel: `tenant_id`, `channel`, `status` (active or
 * disabled) and `updated_at`, written by the integration hub.
 */
export const channelConnection = /* @__PURE__ */ entity('channel_connection', {
  table: { pk: 'TENANT#{tenant_id}#CHANNEL', sk: '{channel}' },
});

export const access = {
  entity: channelConnection,
  patterns: [{ name: "A tenant's channel connection (policy check, provider gate)", sortKey: 'equals' }],
} satisfies AccessDoc<typeof channelConnection>;
