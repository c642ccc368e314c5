import { describe, expect, it } from 'vitest';
import {
  AccountingExportRead,
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
import type { AnyRecordDeclaration } from '#shared/table/entity';
import { accountingExportRecord } from '#shared/table/entities/accounting-export';
import { auditRecord } from '#shared/table/entities/audit';
import { documentRecord } from '#shared/table/entities/document';
import { exceptionRecord } from '#shared/table/entities/exception';
import { integrationConnectionRecord } from '#shared/table/entities/integration-connection';
import { reconciliationRunRecord } from '#shared/table/entities/reconciliation-run';
import { invitationRecord } from '#shared/table/entities/invitation';
import { memberRecord } from '#shared/table/entities/member';
import { notificationRecord } from '#shared/table/entities/notification';
import { reviewItemRecord } from '#shared/table/entities/review-item';
import { sessionRecord } from '#shared/table/entities/session';
import { taskRecord } from '#shared/table/entities/task';
import { tenantRecord } from '#shared/table/entities/tenant';
import { userRecord } from '#shared/table/entities/user';
import { workflowRuleRecord } from '#shared/table/entities/workflow-rule';

/** The attributes of a declaration the API returns: the stored fields and the derived ones, in order. */
const readShape = (declaration: AnyRecordDeclaration) =>
  Object.entries(declaration.attributes)
    .filter(([, attribute]) => typeof attribute === 'string' || !('hidden' in attribute))
    .map(([name]) => name);

/**
 * The stores copy a record's declared fields out of its items (so key and internal attributes
 * never reach a client); the response schemas name the same fields, in the same order.
 */
describe('record declarations match the response records', () => {
  it.each([
    ['BusinessExceptionRead', exceptionRecord, BusinessExceptionRead.shape],
    ['NotificationRead', notificationRecord, NotificationRead.shape],
    ['ReviewItemRead', reviewItemRecord, ReviewItemRead.shape],
    ['TenantRead', tenantRecord, TenantRead.shape],
    ['AuditEventRead', auditRecord, AuditEventRead.shape],
    ['DocumentRead', documentRecord, DocumentRead.shape],
    ['TaskRead', taskRecord, TaskRead.shape],
    ['WorkflowRuleRead', workflowRuleRecord, WorkflowRuleRead.shape],
    ['UserRead', userRecord, UserRead.shape],
    ['MemberInvitationRead', invitationRecord, MemberInvitationRead.shape],
    ['AuthSessionRead', sessionRecord, AuthSessionRead.shape],
    ['IntegrationConnectionRead', integrationConnectionRecord, IntegrationConnectionRead.shape],
    ['ReconciliationRunRead', reconciliationRunRecord, ReconciliationRunRead.shape],
    ['AccountingExportRead', accountingExportRecord, AccountingExportRead.shape],
  ])('%s: the same fields, in order', (_name, declaration: AnyRecordDeclaration, shape) => {
    expect(readShape(declaration)).toEqual(Object.keys(shape));
  });

  it.each([
    ['MembershipRead', memberRecord, MembershipRead.shape],
    ['MemberRead', memberRecord, MemberRead.shape],
  ])(
    '%s: a view of the stored record, every field stored',
    (_name, declaration: AnyRecordDeclaration, shape) => {
      expect(Object.keys(shape).filter((f) => !declaration.fields.includes(f))).toEqual([]);
    },
  );
});
