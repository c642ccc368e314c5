import type * as core from 'zod/v4/core';
import {
  AccessTokenRead,
  AuditEventList,
  AuthMeRead,
  AuthSessionList,
  BusinessExceptionList,
  BusinessExceptionRead,
  DocumentList,
  DocumentRead,
  MemberList,
  MemberRead,
  NotificationList,
  NotificationRead,
  ReviewItemList,
  ReviewItemRead,
  TenantList,
  TenantRead,
} from '#shared/api/schemas/responses';

/**
 * The response record of each operation, kept apart from the group modules the Lambda functions
 * import: only the OpenAPI document needs them (shared/api/manifest.ts merges them into OPERATIONS).
 */
export const RESPONSES = {
  'auth.login': AccessTokenRead,
  'auth.sessions': AuthSessionList,
  'auth.me': AuthMeRead,
  'tenants.create': TenantRead,
  'tenants.list': TenantList,
  'tenants.get': TenantRead,
  'members.list': MemberList,
  'members.add': MemberRead,
  'members.update': MemberRead,
  'exceptions.create': BusinessExceptionRead,
  'exceptions.list': BusinessExceptionList,
  'exceptions.get': BusinessExceptionRead,
  'exceptions.changeStatus': BusinessExceptionRead,
  'documents.create': DocumentRead,
  'documents.list': DocumentList,
  'documents.get': DocumentRead,
  'documents.changeStatus': DocumentRead,
  'audit.list': AuditEventList,
  'notifications.create': NotificationRead,
  'notifications.list': NotificationList,
  'notifications.get': NotificationRead,
  'reviewItems.list': ReviewItemList,
  'reviewItems.decide': ReviewItemRead,
} as const satisfies Record<string, core.$ZodType>;
