import { type AccessDoc, entity, record } from '../entity';
import { editable } from '../editable';

/**
 * A tenant. `owner_count` guards the last owner: memberships change it in the same transaction,
 * under the condition `owner_count > 1`.
 */
export const tenant = /* @__PURE__ */ entity('tenant', {
  table: { pk: 'TENANT#{id}', sk: 'TENANT' },
  gsi1: { pk: 'TENANTS', sk: '{created_at}#{id}' },
});

/** The tenant record (TenantRead derives from it); `owner_count` keeps the last-owner rule a
 * condition of the membership change's transaction. */
export const tenantRecord = /* @__PURE__ */ record(tenant, {
  id: 'string',
  name: 'string',
  /** An IANA time zone name; items written before it existed read as `UTC`. */
  timezone: 'string',
  status: 'enum',
  created_at: 'datetime',
  owner_count: { type: 'int', hidden: true },
});

/** What `PATCH /tenants/{tenant_id}` may change: TenantUpdate and updateTenant derive from it. */
export const tenantEditable = /* @__PURE__ */ editable(tenantRecord, ['name', 'timezone']);

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
