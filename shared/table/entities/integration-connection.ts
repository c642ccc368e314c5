import { type AccessDoc, entity, record } from '../entity';
import { editable } from '../editable';

/**
 * A tenant's connection to an adapter of the catalog (docs/api.md section 9.3). Its secret is not
 * here: it lives in private storage (the `ConnectionSecrets` port), the item only says whether one
 * is set (`secret_configured`).
 */
export const integrationConnection = /* @__PURE__ */ entity('integration_connection', {
  table: { pk: 'TENANT#{tenant_id}#INTEGRATION_CONNECTION', sk: '{id}' },
});

/** The connection record (IntegrationConnectionRead derives from it; the domain computes its health). */
export const integrationConnectionRecord = /* @__PURE__ */ record(integrationConnection, {
  id: 'string',
  tenant_id: 'string',
  adapter_key: 'string',
  category: { type: 'enum', hidden: true },
  name: 'string',
  status: 'enum',
  scopes: 'string[]',
  config: 'json',
  mapping: 'json',
  /** Whether a secret is stored; the secret itself is never returned. */
  secret_configured: 'boolean',
  /** Scheduled diagnostics and reconciliation (`hub_schedule` timer); missing on older items: none. */
  schedule: 'json|null',
  health: { type: 'json', derived: true },
  created_at: 'datetime',
  updated_at: 'datetime',
});

/**
 * What a connection's PATCH may change, and its secret: write-only, kept in private storage (the
 * record says only `secret_configured`). IntegrationConnectionUpdate and updateConnection derive
 * from it.
 */
export const integrationConnectionEditable = /* @__PURE__ */ editable(
  integrationConnectionRecord,
  ['name', 'status', 'scopes', 'config', 'secret', 'mapping', 'schedule'],
  { writeOnly: ['secret'] },
);

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
