import { type AccessDoc, entity } from '../entity';

/**
 * A tenant. `owner_count` guards the last owner: memberships change it in the same transaction,
 * under the condition `owner_count > 1`.
 */
export const tenant = /* @__PURE__ */ entity('tenant', {
  table: { pk: 'TENANT#{id}', sk: 'TENANT' },
  gsi1: { pk: 'TENANTS', sk: '{created_at}#{id}' },
});

/** The tenant record the stores read back (TenantRead's fields; `owner_count` stays internal). */
export const TENANT_FIELDS = ['id', 'name', 'status', 'created_at'] as const;

export const access = {
  entity: tenant,
  labels: { id: 'tenant_id' },
  patterns: [
    { name: 'Get tenant', sortKey: 'equals' },
    {
      name: 'List all tenants (platform_admin)',
      index: 'gsi1',
      notes: 'newest first; one partition, tenants are few and rarely written',
    },
  ],
} satisfies AccessDoc<typeof tenant>;
