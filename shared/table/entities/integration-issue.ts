import { type AccessDoc, entity, record } from '../entity';

/**
 * An integration issue (docs/api.md section 9.3): one item per connection and issue code, so a
 * problem found again finds its own item. Opening is a conditional write that succeeds only when
 * the item is absent or not `open`: a second failing run changes nothing, a failure after a
 * resolution reopens the same item (`times_opened` counts).
 */
export const integrationIssue = /* @__PURE__ */ entity('integration_issue', {
  table: { pk: 'TENANT#{tenant_id}#INTEGRATION_ISSUE', sk: '{connection_id}#{issue_code}' },
});

/** An integration issue as the hub reads it (no API record of its own: diagnostics and review items show it). */
export const integrationIssueRecord = /* @__PURE__ */ record(integrationIssue, {
  tenant_id: 'string',
  connection_id: 'string',
  issue_code: 'enum',
  status: 'enum',
  message: 'string',
  next_action: 'string|null',
  review_item_id: 'string',
  times_opened: 'int',
  opened_at: 'datetime',
  closed_at: 'datetime|null',
  updated_at: 'datetime',
});

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
