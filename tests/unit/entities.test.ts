import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS_PATTERNS, DOCUMENTED } from '#shared/table/access-patterns';
import { accountingExport } from '#shared/table/entities/accounting-export';
import { audit } from '#shared/table/entities/audit';
import { adapterConnection } from '#shared/table/entities/adapter-connection';
import { consumed } from '#shared/table/entities/consumed';
import { document } from '#shared/table/entities/document';
import { documentNumber } from '#shared/table/entities/document-number';
import { exception } from '#shared/table/entities/exception';
import { exportBatch } from '#shared/table/entities/export-batch';
import { exportBooking } from '#shared/table/entities/export-booking';
import { idempotency } from '#shared/table/entities/idempotency';
import { inboxItem } from '#shared/table/entities/inbox-item';
import { connectionHealth } from '#shared/table/entities/connection-health';
import { integrationConnection } from '#shared/table/entities/integration-connection';
import { integrationIssue } from '#shared/table/entities/integration-issue';
import { reconciliationRun } from '#shared/table/entities/reconciliation-run';
import { invitation } from '#shared/table/entities/invitation';
import { login } from '#shared/table/entities/login';
import { loginFailures } from '#shared/table/entities/login-failures';
import { member } from '#shared/table/entities/member';
import { notification } from '#shared/table/entities/notification';
import { outbox } from '#shared/table/entities/outbox';
import { reviewItem, reviewKeys } from '#shared/table/entities/review-item';
import { session } from '#shared/table/entities/session';
import { task } from '#shared/table/entities/task';
import { tenant } from '#shared/table/entities/tenant';
import { MEMBERSHIPS_END, user } from '#shared/table/entities/user';
import { workflowRule } from '#shared/table/entities/workflow-rule';

/**
 * The keys derived from the declarations, pinned literally: these are the keys of the items
 * already in the table, so a change of layout must fail here before it strands them.
 */
const T = '2026-01-02T03:04:05.000Z';

/** The index keys of an item. */
const gsiKeys = (item: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(item).filter(([attribute]) => attribute.startsWith('gsi')));

describe('entity keys (pinned: the items in the table were written with these)', () => {
  it.each([
    ['user', user.key({ id: 'u1' }), { pk: 'USER#u1', sk: 'USER' }],
    ['login', login.key({ email: 'Ada@Example.TEST' }), { pk: 'EMAIL#ada@example.test', sk: 'EMAIL' }],
    [
      'login failures',
      loginFailures.key({ email_hash: 'h1', window_start: T }),
      { pk: 'LOGIN_FAILURES#h1', sk: T },
    ],
    ['session', session.key({ token_id: 'tok' }), { pk: 'SESSION#tok', sk: 'SESSION' }],
    ['tenant', tenant.key({ id: 'acme' }), { pk: 'TENANT#acme', sk: 'TENANT' }],
    ['member', member.key({ tenant_id: 'acme', user_id: 'u1' }), { pk: 'TENANT#acme#MEMBER', sk: 'u1' }],
    [
      'invitation',
      invitation.key({ tenant_id: 'acme', email: 'Ada@Example.TEST' }),
      { pk: 'TENANT#acme#INVITATION', sk: 'ada@example.test' },
    ],
    ['exception', exception.key({ tenant_id: 'acme', id: 'e1' }), { pk: 'TENANT#acme#EXCEPTION', sk: 'e1' }],
    ['audit', audit.key({ tenant_id: 'acme', id: 'a1' }), { pk: 'TENANT#acme#AUDIT', sk: 'a1' }],
    ['outbox', outbox.key({ event_id: 'ev1' }), { pk: 'OUTBOX#ev1', sk: 'OUTBOX' }],
    [
      'notification',
      notification.key({ tenant_id: 'acme', id: 'n1' }),
      { pk: 'TENANT#acme#NOTIFICATION', sk: 'n1' },
    ],
    ['review item', reviewItem.key({ tenant_id: 'acme', id: 'r1' }), { pk: 'TENANT#acme#REVIEW', sk: 'r1' }],
    [
      'integration connection',
      integrationConnection.key({ tenant_id: 'acme', id: 'c1' }),
      { pk: 'TENANT#acme#INTEGRATION_CONNECTION', sk: 'c1' },
    ],
    [
      'adapter connection',
      adapterConnection.key({ tenant_id: 'acme', adapter_key: 'email' }),
      { pk: 'TENANT#acme#ADAPTER_CONNECTION', sk: 'email' },
    ],
    [
      'connection health',
      connectionHealth.key({ tenant_id: 'acme', connection_id: 'c1' }),
      { pk: 'TENANT#acme#CONNECTION_HEALTH', sk: 'c1' },
    ],
    [
      'integration issue',
      integrationIssue.key({ tenant_id: 'acme', connection_id: 'c1', issue_code: 'secret_missing' }),
      { pk: 'TENANT#acme#INTEGRATION_ISSUE', sk: 'c1#secret_missing' },
    ],
    [
      'reconciliation run',
      reconciliationRun.key({ tenant_id: 'acme', id: 'r1' }),
      { pk: 'TENANT#acme#RECONCILIATION_RUN', sk: 'r1' },
    ],
    [
      'inbox item',
      inboxItem.key({ tenant_id: 'acme', user_id: 'u1', notification_id: 'n1' }),
      { pk: 'TENANT#acme#INBOX#u1', sk: 'n1' },
    ],
    ['consumed', consumed.key({ idempotency_key: 'k1' }), { pk: 'CONSUMED#k1', sk: 'CONSUMED' }],
    ['document', document.key({ tenant_id: 'acme', id: 'd1' }), { pk: 'TENANT#acme#DOCUMENT', sk: 'd1' }],
    ['task', task.key({ tenant_id: 'acme', id: 'k1' }), { pk: 'TENANT#acme#TASK', sk: 'k1' }],
    [
      'workflow rule',
      workflowRule.key({ tenant_id: 'acme', id: 'r1' }),
      { pk: 'TENANT#acme#WORKFLOW_RULE', sk: 'r1' },
    ],
    [
      'document number',
      documentNumber.key({ tenant_id: 'acme', document_type: 'invoice', number: 'INV-1' }),
      { pk: 'TENANT#acme#DOCUMENT_NUMBER', sk: 'invoice#INV-1' },
    ],
    [
      'accounting export',
      accountingExport.key({ tenant_id: 'acme', id: 'x1' }),
      { pk: 'TENANT#acme#ACCOUNTING_EXPORT', sk: 'x1' },
    ],
    [
      'export batch',
      exportBatch.key({ tenant_id: 'acme', export_batch_id: 'B-1' }),
      { pk: 'TENANT#acme#EXPORT_BATCH', sk: 'B-1' },
    ],
    [
      'export booking',
      exportBooking.key({ tenant_id: 'acme', export_id: 'x1', index: 3 }),
      { pk: 'TENANT#acme#ACCOUNTING_EXPORT#x1#BOOKING', sk: '3' },
    ],
    [
      'idempotency',
      idempotency.key({ scope: 'acme', operation: 'createException', key_hash: 'h1' }),
      { pk: 'IDEMPOTENCY#acme#createException#h1', sk: 'IDEMPOTENCY' },
    ],
  ])('%s', (_name, key, expected) => {
    expect(key).toEqual(expected);
  });

  it.each([
    ['user', gsiKeys(user.item({}, { id: 'u1' })), { gsi1pk: 'USER#u1', gsi1sk: '#USER' }],
    [
      'session',
      gsiKeys(session.item({}, { user_id: 'u1', created_at: T, token_id: 'tok' })),
      { gsi1pk: 'USER#u1', gsi1sk: `SESSION#${T}#tok` },
    ],
    [
      'tenant',
      gsiKeys(tenant.item({}, { id: 'acme', created_at: T })),
      { gsi1pk: 'TENANTS', gsi1sk: `${T}#acme` },
    ],
    [
      'member',
      gsiKeys(member.item({}, { tenant_id: 'acme', user_id: 'u1' })),
      { gsi1pk: 'USER#u1', gsi1sk: 'MEMBER#acme' },
    ],
    [
      'invitation',
      gsiKeys(invitation.item({}, { tenant_id: 'acme', email: 'Ada@Example.TEST', id: 'i1' })),
      {
        gsi1pk: 'INVITEE#ada@example.test',
        gsi1sk: 'i1',
        gsi2pk: 'TENANT#acme#INVITATION',
        gsi2sk: 'i1',
      },
    ],
    [
      'exception',
      gsiKeys(
        exception.item(
          {},
          {
            tenant_id: 'acme',
            id: 'e1',
            status: 'open',
            subject_type: 'invoice',
            subject_id: 'i1',
          },
        ),
      ),
      {
        gsi1pk: 'TENANT#acme#EXCEPTION#STATUS#open',
        gsi1sk: 'e1',
        gsi2pk: 'TENANT#acme#EXCEPTION#SUBJECT#invoice#i1',
        gsi2sk: 'e1',
      },
    ],
    [
      'audit',
      gsiKeys(audit.item({}, { tenant_id: 'acme', id: 'a1', entity_type: 'exception', entity_id: 'e1' })),
      {
        gsi1pk: 'TENANT#acme#AUDIT#ENTITY#exception#e1',
        gsi1sk: 'a1',
        gsi2pk: 'TENANT#acme#AUDIT#TYPE#exception',
        gsi2sk: 'a1',
      },
    ],
    [
      'notification',
      gsiKeys(notification.item({}, { tenant_id: 'acme', id: 'n1', status: 'queued', channel: 'email' })),
      {
        gsi1pk: 'TENANT#acme#NOTIFICATION#STATUS#queued',
        gsi1sk: 'n1',
        gsi2pk: 'TENANT#acme#NOTIFICATION#CHANNEL#email',
        gsi2sk: 'n1',
      },
    ],
    [
      'review item',
      gsiKeys(reviewItem.item({}, { tenant_id: 'acme', id: 'r1', status: 'open' })),
      { gsi1pk: 'TENANT#acme#REVIEW#STATUS#open', gsi1sk: 'r1' },
    ],
    [
      'open review item, with its keys (counted by the operator metrics)',
      gsiKeys(
        reviewItem.item(
          {},
          reviewKeys({ tenant_id: 'acme', id: 'r1', status: 'open', kind: 'workflow_action' }),
        ),
      ),
      {
        gsi1pk: 'TENANT#acme#REVIEW#STATUS#open',
        gsi1sk: 'r1',
        gsi2pk: 'TENANT#acme#REVIEW#KIND#workflow_action',
        gsi2sk: 'r1',
        gsi3pk: 'REVIEW#OPEN#workflow_action',
        gsi3sk: 'acme#r1',
      },
    ],
    [
      'open review item written before kinds (a notification item)',
      gsiKeys(reviewItem.item({}, reviewKeys({ tenant_id: 'acme', id: 'r1', status: 'open' }))),
      {
        gsi1pk: 'TENANT#acme#REVIEW#STATUS#open',
        gsi1sk: 'r1',
        gsi2pk: 'TENANT#acme#REVIEW#KIND#notification',
        gsi2sk: 'r1',
        gsi3pk: 'REVIEW#OPEN#notification',
        gsi3sk: 'acme#r1',
      },
    ],
    [
      'decided review item (left out of the open count)',
      gsiKeys(
        reviewItem.item(
          {},
          reviewKeys({ tenant_id: 'acme', id: 'r1', status: 'retried', kind: 'notification' }),
        ),
      ),
      {
        gsi1pk: 'TENANT#acme#REVIEW#STATUS#retried',
        gsi1sk: 'r1',
        gsi2pk: 'TENANT#acme#REVIEW#KIND#notification',
        gsi2sk: 'r1',
      },
    ],
    [
      'document',
      gsiKeys(document.item({}, { tenant_id: 'acme', id: 'd1', status: 'draft', document_type: 'invoice' })),
      {
        gsi1pk: 'TENANT#acme#DOCUMENT#STATUS#draft',
        gsi1sk: 'd1',
        gsi2pk: 'TENANT#acme#DOCUMENT#TYPE#invoice',
        gsi2sk: 'd1',
      },
    ],
    [
      'accounting export',
      gsiKeys(accountingExport.item({}, { tenant_id: 'acme', id: 'x1', status: 'queued' })),
      { gsi1pk: 'TENANT#acme#ACCOUNTING_EXPORT#STATUS#queued', gsi1sk: 'x1' },
    ],
    [
      'task',
      gsiKeys(task.item({}, { tenant_id: 'acme', id: 'k1', status: 'open', assignee_id: 'u1' })),
      {
        gsi1pk: 'TENANT#acme#TASK#STATUS#open',
        gsi1sk: 'k1',
        gsi2pk: 'TENANT#acme#TASK#ASSIGNEE#u1',
        gsi2sk: 'k1',
      },
    ],
    [
      'unassigned task (no assignee index)',
      gsiKeys(task.item({}, { tenant_id: 'acme', id: 'k1', status: 'open', assignee_id: null })),
      { gsi1pk: 'TENANT#acme#TASK#STATUS#open', gsi1sk: 'k1' },
    ],
    [
      'enabled workflow rule',
      gsiKeys(
        workflowRule.item({}, { tenant_id: 'acme', id: 'r1', enabled_event_type: 'exception.created' }),
      ),
      { gsi1pk: 'TENANT#acme#WORKFLOW_RULE#ON#exception.created', gsi1sk: 'r1' },
    ],
    [
      'disabled workflow rule (not in the worker index)',
      gsiKeys(workflowRule.item({}, { tenant_id: 'acme', id: 'r1', enabled_event_type: null })),
      {},
    ],
    [
      'outbox (shard 0 is a shard)',
      gsiKeys(outbox.item({}, { event_id: 'ev1', occurred_at: T, shard: 0 })),
      { gsi3pk: 'OUTBOX#PENDING#0', gsi3sk: `${T}#ev1` },
    ],
  ])('%s index keys', (_name, keys, expected) => {
    expect(keys).toEqual(expected);
  });

  it('leaves off an index whose attributes are not all set (audit events of no entity)', () => {
    const base = { tenant_id: 'acme', id: 'a1' };
    expect(gsiKeys(audit.item({}, { ...base, entity_type: 'exception', entity_id: null }))).toEqual({
      gsi2pk: 'TENANT#acme#AUDIT#TYPE#exception',
      gsi2sk: 'a1',
    });
    expect(gsiKeys(audit.item({}, { ...base, entity_type: null, entity_id: null }))).toEqual({});
    expect(gsiKeys(audit.item({}, { ...base, entity_type: '', entity_id: '' }))).toEqual({});
  });
});

describe('entity items and queries', () => {
  it('an item is its keys, its index keys, its entity and its record', () => {
    const record = {
      id: 'u1',
      email: 'Ada@Example.TEST',
      display_name: 'Ada',
      created_at: T,
      platform_roles: [],
    };
    expect(user.item(record)).toEqual({
      pk: 'USER#u1',
      sk: 'USER',
      gsi1pk: 'USER#u1',
      gsi1sk: '#USER',
      entity: 'user',
      ...record,
    });
    // The login keeps the email as given and is keyed by it lower-cased.
    expect(login.item({ user_id: 'u1', ...record, password_hash: 'x' })).toEqual({
      pk: 'EMAIL#ada@example.test',
      sk: 'EMAIL',
      entity: 'email',
      user_id: 'u1',
      ...record,
      password_hash: 'x',
    });
  });

  it('keys from separate values store nothing but the record', () => {
    expect(consumed.item({ state: 'in_progress', lease_until: T }, { idempotency_key: 'k1' })).toEqual({
      pk: 'CONSUMED#k1',
      sk: 'CONSUMED',
      entity: 'consumed',
      state: 'in_progress',
      lease_until: T,
    });
  });

  it('query names the index (none for the table) and the partition', () => {
    expect(exception.query('table', { tenant_id: 'acme' })).toEqual({
      index: undefined,
      partition: 'TENANT#acme#EXCEPTION',
    });
    expect(exception.query('gsi2', { tenant_id: 'acme', subject_type: 'invoice', subject_id: 'i1' })).toEqual(
      {
        index: 'gsi2',
        partition: 'TENANT#acme#EXCEPTION#SUBJECT#invoice#i1',
      },
    );
    expect(tenant.query('gsi1', {})).toEqual({ index: 'gsi1', partition: 'TENANTS' });
    expect(outbox.query('gsi3', { shard: 3 }).partition).toBe('OUTBOX#PENDING#3');
    expect(session.sortPrefix('gsi1')).toBe('SESSION#');
    expect(member.sortPrefix('gsi1')).toBe('MEMBER#');
  });
});

describe('the entity registry', () => {
  const entities = DOCUMENTED.map((doc) => doc.entity);

  it('lists every module of shared/table/entities', async () => {
    const dir = new URL('../../shared/table/entities/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    for (const file of files) {
      const module = (await import(new URL(file, dir).href)) as { access: unknown };
      expect(DOCUMENTED, file).toContain(module.access);
    }
    expect(DOCUMENTED).toHaveLength(files.length);
  });

  it('gives every entity its own `entity` value and its own table keys', () => {
    const shape = (template: string) => template.replace(/\{[^}]+\}/g, '{}');
    expect(new Set(entities.map((e) => e.entity)).size).toBe(entities.length);
    const layouts = entities.map((e) => `${shape(e.indexes.table.pk)} ${shape(e.indexes.table.sk)}`);
    expect(new Set(layouts).size).toBe(entities.length);
  });

  it('derives the key conditions from the key templates', () => {
    const condition = (name: string) => ACCESS_PATTERNS.find((p) => p.name === name)?.keyCondition;
    expect(condition('Find login by email')).toBe('pk = EMAIL#<lower(email)> AND sk = EMAIL');
    expect(condition('Get exception')).toBe('pk = TENANT#<tenant_id>#EXCEPTION AND sk = <exception_id>');
    expect(condition('List exceptions by subject')).toBe(
      'gsi2pk = TENANT#<tenant_id>#EXCEPTION#SUBJECT#<subject_type>#<subject_id>',
    );
    expect(condition("List a user's sessions")).toBe(
      'gsi1pk = USER#<user_id> AND begins_with(gsi1sk, SESSION#)',
    );
    expect(condition('User with their memberships (identity, token check)')).toBe(
      `gsi1pk = USER#<user_id> AND gsi1sk < '${MEMBERSHIPS_END}'`,
    );
    expect(condition('Outbox items not yet relayed (sweeper; operator metrics count them)')).toBe(
      'gsi3pk = OUTBOX#PENDING#<shard> AND gsi3sk < <cutoff occurred_at>',
    );
  });
});
