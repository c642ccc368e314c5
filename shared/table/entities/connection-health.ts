import { type AccessDoc, entity } from '../entity';

/**
 * What a connection's health is computed from (docs/api.md section 9.3): when its provider last
 * answered and last failed (diagnostics, reconciliation runs), and the codes of its open
 * integration issues (a string set kept in the same transactions that open and close them), and
 * since when the provider refuses the service's OAuth app for it (cleared by a token call that
 * succeeds). One
 * item per connection, read with the connection: no scan of results or issues.
 */
export const connectionHealth = /* @__PURE__ */ entity('connection_health', {
  table: { pk: 'TENANT#{tenant_id}#CONNECTION_HEALTH', sk: '{connection_id}' },
});

export const CONNECTION_HEALTH_FIELDS = [
  'tenant_id',
  'connection_id',
  'last_success_at',
  'last_failure_at',
  'last_failure_reason',
  'open_issue_codes',
  'app_credentials_invalid_since',
] as const;

export const access = {
  entity: connectionHealth,
  patterns: [
    {
      name: "A connection's health record",
      sortKey: 'equals',
      notes: "GetItem with the connection; BatchGetItem of a list page's connections",
    },
  ],
} satisfies AccessDoc<typeof connectionHealth>;
