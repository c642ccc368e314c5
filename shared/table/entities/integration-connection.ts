import { type AccessDoc, entity } from '../entity';

/**
 * A tenant's connection to an adapter of the catalog (docs/api.md section 9.3). Its secret is not
 * here: it lives in private storage (the `ConnectionSecrets` port), the item only says whether one
 * is set (`secret_configured`).
 */
export const integrationConnection = /* @__PURE__ */ entity('integration_connection', {
  table: { pk: 'TENANT#{tenant_id}#INTEGRATION_CONNECTION', sk: '{id}' },
});

/** The connection record the stores read back (IntegrationConnectionRead's fields but `health`, and its category). */
export const INTEGRATION_CONNECTION_FIELDS = [
  'id',
  'tenant_id',
  'adapter_key',
  'category',
  'name',
  'status',
  'scopes',
  'config',
  'mapping',
  'secret_configured',
  'created_at',
  'updated_at',
] as const;

export const access = {
  entity: integrationConnection,
  labels: { id: 'connection_id' },
  patterns: [
    { name: 'Get integration connection', sortKey: 'equals' },
    {
      name: 'List integration connections, newest first',
      notes: 'status and adapter_key are filter expressions',
    },
  ],
} satisfies AccessDoc<typeof integrationConnection>;
