import type * as core from 'zod/v4/core';
import {
  AccessTokenRead,
  AuditEventList,
  AuthInvitationList,
  AuthMeRead,
  AuthSessionList,
  BusinessExceptionList,
  BusinessExceptionRead,
  MemberInvitationList,
  MemberInvitationRead,
  MemberList,
  MembershipRead,
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
  'auth.invitations': AuthInvitationList,
  'auth.acceptInvitation': MembershipRead,
  'tenants.create': TenantRead,
  'tenants.list': TenantList,
  'tenants.get': TenantRead,
  'members.list': MemberList,
  'members.add': MemberInvitationRead,
  'members.update': MemberRead,
  'invitations.list': MemberInvitationList,
  'exceptions.create': BusinessExceptionRead,
  'exceptions.list': BusinessExceptionList,
  'exceptions.get': BusinessExceptionRead,
  'exceptions.changeStatus': BusinessExceptionRead,
  'audit.list': AuditEventList,
  'notifications.create': NotificationRead,
  'notifications.list': NotificationList,
  'notifications.get': NotificationRead,
  'reviewItems.list': ReviewItemList,
  'reviewItems.decide': ReviewItemRead,
} as const satisfies Record<string, core.$ZodType>;

/** The response record of each operation's `alternative` success status. */
export const ALTERNATIVE_RESPONSES = {
  'members.add': MemberRead,
} as const satisfies Record<string, core.$ZodType>;
