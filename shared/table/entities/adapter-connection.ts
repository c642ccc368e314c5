import { type AccessDoc, entity } from '../entity';

/**
 * A tenant's current connection of one adapter: `connection_id`, `category` and `status` (active
 * or disabled) of the connection that holds the adapter. At most one connection of an adapter is
 * active per tenant: an active one holds this item, a disabled one keeps it until another becomes
 * active. The provider gate and the policy check read a channel's state here in one GetItem;
 * written in the same transaction as the connection.
 */
export const adapterConnection = /* @__PURE__ */ entity('adapter_connection', {
  table: { pk: 'TENANT#{tenant_id}#ADAPTER_CONNECTION', sk: '{adapter_key}' },
});

export const access = {
  entity: adapterConnection,
  patterns: [
    { name: "A tenant's connection of an adapter (policy check, provider gate)", sortKey: 'equals' },
    {
      name: "A tenant's connections by adapter (active one of a category: accounting export)",
      notes: 'at most one item per adapter of the catalog; category and status are read from the items',
    },
  ],
} satisfies AccessDoc<typeof adapterConnection>;
