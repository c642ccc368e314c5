import { describe, expect, it } from 'vitest';
import {
  AuditEventRead,
  AuthSessionRead,
  BusinessExceptionRead,
  MemberInvitationRead,
  DocumentRead,
  IntegrationConnectionRead,
  ReconciliationRunRead,
  MemberRead,
  MembershipRead,
  NotificationRead,
  ReviewItemRead,
  TaskRead,
  TenantRead,
  UserRead,
  WorkflowRuleRead,
} from '#shared/api/schemas/responses';
import { AUDIT_FIELDS } from '#shared/table/entities/audit';
import { documentRecord } from '#shared/table/entities/document';
import { exceptionRecord } from '#shared/table/entities/exception';
import { INTEGRATION_CONNECTION_FIELDS } from '#shared/table/entities/integration-connection';
import { RECONCILIATION_RUN_FIELDS } from '#shared/table/entities/reconciliation-run';
import { INVITATION_FIELDS } from '#shared/table/entities/invitation';
import { MEMBER_FIELDS } from '#shared/table/entities/member';
import { NOTIFICATION_FIELDS } from '#shared/table/entities/notification';
import { REVIEW_ITEM_FIELDS } from '#shared/table/entities/review-item';
import { SESSION_FIELDS } from '#shared/table/entities/session';
import { taskRecord } from '#shared/table/entities/task';
import { TENANT_FIELDS } from '#shared/table/entities/tenant';
import { USER_FIELDS } from '#shared/table/entities/user';
import { WORKFLOW_RULE_FIELDS } from '#shared/table/entities/workflow-rule';

/**
 * The stores copy an entity's declared fields out of its items (so key and internal attributes
 * never reach a client); the declarations live apart from the response schemas to keep those
 * out of the Lambda bundles, and must name the response records' fields.
 */
describe('entity fields match the response records', () => {
  it.each([
    ['BusinessExceptionRead', exceptionRecord.fields, BusinessExceptionRead.shape],
    ['NotificationRead', NOTIFICATION_FIELDS, NotificationRead.shape],
    ['ReviewItemRead', REVIEW_ITEM_FIELDS, ReviewItemRead.shape],
    ['TenantRead', TENANT_FIELDS, TenantRead.shape],
    ['AuditEventRead', AUDIT_FIELDS, AuditEventRead.shape],
    ['DocumentRead', documentRecord.fields, DocumentRead.shape],
    ['TaskRead', taskRecord.fields, TaskRead.shape],
    ['WorkflowRuleRead', WORKFLOW_RULE_FIELDS, WorkflowRuleRead.shape],
  ])('%s: the same fields, in order', (_name, fields, shape) => {
    expect([...fields]).toEqual(Object.keys(shape));
  });

  it.each([
    ['UserRead', USER_FIELDS, UserRead.shape, []],
    ['MembershipRead', MEMBER_FIELDS, MembershipRead.shape, []],
    ['MemberRead', MEMBER_FIELDS, MemberRead.shape, []],
    ['MemberInvitationRead', INVITATION_FIELDS, MemberInvitationRead.shape, []],
    // The domain derives these from the stored session and the user's memberships.
    ['AuthSessionRead', SESSION_FIELDS, AuthSessionRead.shape, ['status', 'tenant_ids']],
    // Health is computed from the connection's deliveries, checks and issues, not stored.
    ['IntegrationConnectionRead', INTEGRATION_CONNECTION_FIELDS, IntegrationConnectionRead.shape, ['health']],
    ['ReconciliationRunRead', RECONCILIATION_RUN_FIELDS, ReconciliationRunRead.shape, []],
  ])('%s: every field is stored, or derived', (_name, fields, shape, derived: string[]) => {
    const missing = Object.keys(shape).filter((f) => !(fields as readonly string[]).includes(f));
    expect(missing).toEqual(derived);
  });
});
