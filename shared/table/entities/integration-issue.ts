import { type AccessDoc, entity } from '../entity';

/**
 * An integration issue (docs/api.md section 9.3): one item per connection and issue code, so a
 * problem found again finds its own item. Opening is a conditional write that succeeds only when
 * the item is absent or not `open`: a second failing run changes nothing, a failure after a
 * resolution reopens the same item (`times_opened` counts).
 */
export const integrationIssue = /* @__PURE__ */ entity('integration_issue', {
  table: { pk: 'TENANT#{tenant_id}#INTEGRATION_ISSUE', sk: '{connection_id}#{issue_code}' },
});

export const INTEGRATION_ISSUE_FIELDS = [
  'tenant_id',
  'connection_id',
  'issue_code',
  'status',
  'message',
  'next_action',
  'review_item_id',
  'times_opened',
  'opened_at',
  'closed_at',
  'updated_at',
] as const;

export const access = {
  entity: integrationIssue,
  labels: { connection_id: 'connection_id', issue_code: 'issue_code' },
  patterns: [
    {
      name: 'Open, reopen, resolve or close the issue of a connection and code',
      sortKey: 'equals',
      notes: 'conditional Update on status: one open issue per connection and code',
    },
  ],
} satisfies AccessDoc<typeof integrationIssue>;
