import type { IndexName } from './table';

/**
 * Every access pattern of the single table (shared/table/table.ts), with the index and key condition
 * that serve it. Documentation data: docs/data-model.md lists the same rows, and
 * tests/unit/data-model-doc.test.ts keeps the two in step. Kept apart from the key module so the
 * Lambda bundles do not carry it.
 */
export interface AccessPattern {
  name: string;
  index: 'table' | IndexName;
  keyCondition: string;
  notes?: string;
}

export const ACCESS_PATTERNS: AccessPattern[] = [
  { name: 'Get user by id', index: 'table', keyCondition: 'pk = USER#<user_id> AND sk = USER' },
  {
    name: 'Find login by email',
    index: 'table',
    keyCondition: 'pk = EMAIL#<lower(email)> AND sk = EMAIL',
    notes: 'holds user_id and the scrypt hash; its conditional Put makes emails unique',
  },
  {
    name: 'Failed logins of an email in this window (login throttle)',
    index: 'table',
    keyCondition: 'pk = LOGIN_FAILURES#<sha256(lower(email))> AND sk = <window start>',
    notes: 'read with the login in one BatchGetItem; counted with ADD; expires by TTL',
  },
  {
    name: 'Check a bearer token',
    index: 'table',
    keyCondition: 'pk = SESSION#<sha256(token)> AND sk = SESSION',
  },
  {
    name: 'User with their memberships (identity, token check)',
    index: 'gsi1',
    keyCondition: "gsi1pk = USER#<user_id> AND gsi1sk < 'N'",
    notes: "'#USER' and 'MEMBER#<tenant_id>' sort before 'N'; sessions ('SESSION#…') after it",
  },
  {
    name: "List a user's sessions",
    index: 'gsi1',
    keyCondition: 'gsi1pk = USER#<user_id> AND begins_with(gsi1sk, SESSION#)',
  },
  { name: 'Get tenant', index: 'table', keyCondition: 'pk = TENANT#<tenant_id> AND sk = TENANT' },
  {
    name: 'List all tenants (platform_admin)',
    index: 'gsi1',
    keyCondition: 'gsi1pk = TENANTS',
    notes: 'newest first; one partition, tenants are few and rarely written',
  },
  {
    name: 'Get a membership',
    index: 'table',
    keyCondition: 'pk = TENANT#<tenant_id>#MEMBER AND sk = <user_id>',
  },
  { name: "List a tenant's members", index: 'table', keyCondition: 'pk = TENANT#<tenant_id>#MEMBER' },
  {
    name: 'Get exception',
    index: 'table',
    keyCondition: 'pk = TENANT#<tenant_id>#EXCEPTION AND sk = <exception_id>',
  },
  {
    name: 'List exceptions, newest first',
    index: 'table',
    keyCondition: 'pk = TENANT#<tenant_id>#EXCEPTION',
    notes: 'severity is a filter expression on whichever index answers',
  },
  {
    name: 'List exceptions by status',
    index: 'gsi1',
    keyCondition: 'gsi1pk = TENANT#<tenant_id>#EXCEPTION#STATUS#<status>',
  },
  {
    name: 'List exceptions by subject',
    index: 'gsi2',
    keyCondition: 'gsi2pk = TENANT#<tenant_id>#EXCEPTION#SUBJECT#<subject_type>#<subject_id>',
    notes: 'subject_type alone, or with status, is a filter on the status index or the table',
  },
  { name: 'List audit events, newest first', index: 'table', keyCondition: 'pk = TENANT#<tenant_id>#AUDIT' },
  {
    name: 'List audit events of one entity',
    index: 'gsi1',
    keyCondition: 'gsi1pk = TENANT#<tenant_id>#AUDIT#ENTITY#<entity_type>#<entity_id>',
  },
  {
    name: 'List audit events of one entity type',
    index: 'gsi2',
    keyCondition: 'gsi2pk = TENANT#<tenant_id>#AUDIT#TYPE#<entity_type>',
  },
  {
    name: 'Outbox items not yet relayed (sweeper)',
    index: 'gsi3',
    keyCondition: 'gsi3pk = OUTBOX#PENDING#<shard> AND gsi3sk < <cutoff occurred_at>',
    notes: 'sparse: the relay removes gsi3pk/gsi3sk when it has published the item',
  },
  {
    name: 'Get notification (with its attempts)',
    index: 'table',
    keyCondition: 'pk = TENANT#<tenant_id>#NOTIFICATION AND sk = <notification_id>',
  },
  {
    name: 'List notifications, newest first',
    index: 'table',
    keyCondition: 'pk = TENANT#<tenant_id>#NOTIFICATION',
    notes: 'recipient is a filter expression on whichever index answers',
  },
  {
    name: 'List notifications by status',
    index: 'gsi1',
    keyCondition: 'gsi1pk = TENANT#<tenant_id>#NOTIFICATION#STATUS#<status>',
    notes: 'channel, when also given, is a filter',
  },
  {
    name: 'List notifications by channel',
    index: 'gsi2',
    keyCondition: 'gsi2pk = TENANT#<tenant_id>#NOTIFICATION#CHANNEL#<channel>',
  },
  {
    name: 'Get review item',
    index: 'table',
    keyCondition: 'pk = TENANT#<tenant_id>#REVIEW AND sk = <review_item_id>',
  },
  { name: 'List review items, newest first', index: 'table', keyCondition: 'pk = TENANT#<tenant_id>#REVIEW' },
  {
    name: 'List review items by status',
    index: 'gsi1',
    keyCondition: 'gsi1pk = TENANT#<tenant_id>#REVIEW#STATUS#<status>',
  },
  {
    name: "A tenant's channel connection (policy check, provider gate)",
    index: 'table',
    keyCondition: 'pk = TENANT#<tenant_id>#CHANNEL AND sk = <channel>',
  },
  {
    name: "A member's in-app inbox, newest first",
    index: 'table',
    keyCondition: 'pk = TENANT#<tenant_id>#INBOX#<user_id>',
  },
  {
    name: 'Consumer idempotency claim',
    index: 'table',
    keyCondition: 'pk = CONSUMED#<idempotency_key> AND sk = CONSUMED',
    notes: 'conditional Put/Update: a redelivered or redriven message never sends twice',
  },
  {
    name: 'HTTP Idempotency-Key record',
    index: 'table',
    keyCondition: 'pk = IDEMPOTENCY#<scope>#<operation>#<sha256(key)> AND sk = IDEMPOTENCY',
    notes:
      'scope is the tenant id, or user:<user_id> on tenant-less routes; expires through ttl after 24 hours',
  },
];
