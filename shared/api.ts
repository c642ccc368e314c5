import * as z from 'zod';
import { DEMO_OPERATIONS } from './demo/operations';
import type { Permission } from './policy';
import { AuditEventList, AuditListQuery } from './schemas/audit';
import { AccessTokenRead, AuthMeRead, AuthSessionList, SessionCreate, SessionPath } from './schemas/auth';
import { TenantPath } from './schemas/common';
import {
  BusinessExceptionCreate,
  BusinessExceptionList,
  BusinessExceptionRead,
  BusinessExceptionStatusChange,
  ExceptionListQuery,
  ExceptionPath,
} from './schemas/exceptions';
import {
  NotificationCreate,
  NotificationList,
  NotificationListQuery,
  NotificationPath,
  NotificationRead,
  ReviewDecision,
  ReviewItemList,
  ReviewItemListQuery,
  ReviewItemPath,
  ReviewItemRead,
} from './schemas/notifications';
import {
  MemberCreate,
  MemberList,
  MemberListQuery,
  MemberPath,
  MemberRead,
  MemberUpdate,
  TenantCreate,
  TenantList,
  TenantListQuery,
  TenantRead,
} from './schemas/tenants';

/**
 * Every HTTP operation of the service, as data. The route groups dispatch from it (404 and 405
 * come from this table), the OpenAPI document is generated from it, and the CDK stack creates one
 * API Gateway route per (group, path) from it. A new feature is a new group and new rows here.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Operation {
  group: string;
  method: Method;
  path: string;
  summary: string;
  /** `public` routes take no token; `bearer` routes need one. */
  auth: 'public' | 'bearer';
  /** Checked against the role matrix; tenant-scoped when the path has `{tenant_id}`. */
  permission?: Permission;
  params?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Creating POSTs honour the `Idempotency-Key` header. */
  idempotent?: boolean;
  status: number;
  response?: z.ZodType;
}

const op = <const O extends Operation>(o: O) => o;

export const OPERATIONS = {
  'auth.login': op({
    group: 'auth',
    method: 'POST',
    path: '/auth/sessions',
    summary: 'Log in: exchange email and password for a bearer token',
    auth: 'public',
    body: SessionCreate,
    status: 201,
    response: AccessTokenRead,
  }),
  'auth.sessions': op({
    group: 'auth',
    method: 'GET',
    path: '/auth/sessions',
    summary: "List the caller's own sessions",
    auth: 'bearer',
    status: 200,
    response: AuthSessionList,
  }),
  'auth.revoke': op({
    group: 'auth',
    method: 'DELETE',
    path: '/auth/sessions/{token_id}',
    summary: 'Revoke one of the caller’s sessions',
    auth: 'bearer',
    params: SessionPath,
    status: 204,
  }),
  'auth.me': op({
    group: 'auth',
    method: 'GET',
    path: '/auth/me',
    summary: 'The caller, their memberships and platform roles',
    auth: 'bearer',
    status: 200,
    response: AuthMeRead,
  }),
  'tenants.create': op({
    group: 'tenants',
    method: 'POST',
    path: '/tenants',
    summary: 'Create a tenant (platform_admin)',
    auth: 'bearer',
    permission: 'platform.admin',
    body: TenantCreate,
    idempotent: true,
    status: 201,
    response: TenantRead,
  }),
  'tenants.list': op({
    group: 'tenants',
    method: 'GET',
    path: '/tenants',
    summary: "The caller's tenants (every tenant for platform_admin)",
    auth: 'bearer',
    query: TenantListQuery,
    status: 200,
    response: TenantList,
  }),
  'tenants.get': op({
    group: 'tenants',
    method: 'GET',
    path: '/tenants/{tenant_id}',
    summary: 'Get a tenant',
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    status: 200,
    response: TenantRead,
  }),
  'members.list': op({
    group: 'tenants',
    method: 'GET',
    path: '/tenants/{tenant_id}/members',
    summary: "List a tenant's members",
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: MemberListQuery,
    status: 200,
    response: MemberList,
  }),
  'members.add': op({
    group: 'tenants',
    method: 'POST',
    path: '/tenants/{tenant_id}/members',
    summary: 'Add a member (creates the user when the email is new)',
    auth: 'bearer',
    permission: 'members.manage',
    params: TenantPath,
    body: MemberCreate,
    idempotent: true,
    status: 201,
    response: MemberRead,
  }),
  'members.update': op({
    group: 'tenants',
    method: 'PATCH',
    path: '/tenants/{tenant_id}/members/{user_id}',
    summary: "Change a member's role",
    auth: 'bearer',
    permission: 'members.manage',
    params: MemberPath,
    body: MemberUpdate,
    status: 200,
    response: MemberRead,
  }),
  'members.remove': op({
    group: 'tenants',
    method: 'DELETE',
    path: '/tenants/{tenant_id}/members/{user_id}',
    summary: 'Remove a member',
    auth: 'bearer',
    permission: 'members.manage',
    params: MemberPath,
    status: 204,
  }),
  'exceptions.create': op({
    group: 'exceptions',
    method: 'POST',
    path: '/tenants/{tenant_id}/exceptions',
    summary: 'Record a business exception',
    auth: 'bearer',
    permission: 'exceptions.write',
    params: TenantPath,
    body: BusinessExceptionCreate,
    idempotent: true,
    status: 201,
    response: BusinessExceptionRead,
  }),
  'exceptions.list': op({
    group: 'exceptions',
    method: 'GET',
    path: '/tenants/{tenant_id}/exceptions',
    summary: 'List business exceptions, newest first',
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: ExceptionListQuery,
    status: 200,
    response: BusinessExceptionList,
  }),
  'exceptions.get': op({
    group: 'exceptions',
    method: 'GET',
    path: '/tenants/{tenant_id}/exceptions/{exception_id}',
    summary: 'Get a business exception',
    auth: 'bearer',
    permission: 'tenant.read',
    params: ExceptionPath,
    status: 200,
    response: BusinessExceptionRead,
  }),
  'exceptions.changeStatus': op({
    group: 'exceptions',
    method: 'POST',
    path: '/tenants/{tenant_id}/exceptions/{exception_id}/status',
    summary: 'Acknowledge or resolve a business exception',
    auth: 'bearer',
    permission: 'exceptions.write',
    params: ExceptionPath,
    body: BusinessExceptionStatusChange,
    status: 200,
    response: BusinessExceptionRead,
  }),
  'notifications.create': op({
    group: 'notifications',
    method: 'POST',
    path: '/tenants/{tenant_id}/notifications',
    summary: 'Draft a notification: policy check, then queued (202) or blocked (422 policy_rejected)',
    auth: 'bearer',
    permission: 'notifications.send',
    params: TenantPath,
    body: NotificationCreate,
    idempotent: true,
    status: 202,
    response: NotificationRead,
  }),
  'notifications.list': op({
    group: 'notifications',
    method: 'GET',
    path: '/tenants/{tenant_id}/notifications',
    summary: 'List notifications with their attempts, newest first',
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: NotificationListQuery,
    status: 200,
    response: NotificationList,
  }),
  'notifications.get': op({
    group: 'notifications',
    method: 'GET',
    path: '/tenants/{tenant_id}/notifications/{notification_id}',
    summary: 'Get a notification with its attempts',
    auth: 'bearer',
    permission: 'tenant.read',
    params: NotificationPath,
    status: 200,
    response: NotificationRead,
  }),
  'reviewItems.list': op({
    group: 'notifications',
    method: 'GET',
    path: '/tenants/{tenant_id}/review-items',
    summary: 'List operator review items (gated or dead-lettered notifications), newest first',
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: ReviewItemListQuery,
    status: 200,
    response: ReviewItemList,
  }),
  'reviewItems.decide': op({
    group: 'notifications',
    method: 'POST',
    path: '/tenants/{tenant_id}/review-items/{review_item_id}/decision',
    summary: 'Decide a review item: retry (queue the notification again) or discard',
    auth: 'bearer',
    permission: 'review_items.decide',
    params: ReviewItemPath,
    body: ReviewDecision,
    status: 200,
    response: ReviewItemRead,
  }),
  'audit.list': op({
    group: 'audit',
    method: 'GET',
    path: '/tenants/{tenant_id}/audit-events',
    summary: "List the tenant's audit events, newest first",
    auth: 'bearer',
    permission: 'audit.read',
    params: TenantPath,
    query: AuditListQuery,
    status: 200,
    response: AuditEventList,
  }),
  'public.health': op({
    group: 'public',
    method: 'GET',
    path: '/health',
    summary: 'Liveness',
    auth: 'public',
    status: 200,
    response: z.object({ status: z.literal('ok') }),
  }),
  ...DEMO_OPERATIONS,
  'public.openapi': op({
    group: 'public',
    method: 'GET',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 description',
    auth: 'public',
    status: 200,
  }),
} as const satisfies Record<string, Operation>;

export type OperationId = keyof typeof OPERATIONS;
export type GroupName = (typeof OPERATIONS)[OperationId]['group'];
export type OperationsOf<G extends string> = {
  [K in OperationId]: (typeof OPERATIONS)[K]['group'] extends G ? K : never;
}[OperationId];

/** The route groups: one Lambda function each. `public` also answers every unknown path (404). */
export const GROUPS = ['auth', 'tenants', 'exceptions', 'notifications', 'audit', 'public'] as const;

export const operationsOfGroup = (group: string): [OperationId, Operation][] =>
  (Object.entries(OPERATIONS) as [OperationId, Operation][]).filter(([, o]) => o.group === group);
