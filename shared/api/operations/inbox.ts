import { TenantPath } from '#shared/api/schemas/common';
import { InboxItemPath, InboxListQuery, InboxReadAll } from '#shared/api/schemas/inbox';
import { op } from './operation';

/**
 * The caller's own in-app inbox in a tenant (docs/api.md section 7.1). Served by the notifications
 * group's function: in_app notifications land here, and a function of its own would cost a cold
 * start for four small reads and writes. Every member reads their own items only; reading is not
 * audited.
 */
export const INBOX_OPERATIONS = {
  'inbox.list': op({
    group: 'notifications',
    method: 'GET',
    path: '/tenants/{tenant_id}/inbox',
    summary: "List the caller's in-app notifications in the tenant, newest first",
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: InboxListQuery,
    status: 200,
  }),
  'inbox.summary': op({
    group: 'notifications',
    method: 'GET',
    path: '/tenants/{tenant_id}/inbox/summary',
    summary: "Count the caller's unread in-app notifications, in all and by category",
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    status: 200,
  }),
  'inbox.read': op({
    group: 'notifications',
    method: 'POST',
    path: '/tenants/{tenant_id}/inbox/{notification_id}/read',
    summary: "Mark one of the caller's in-app notifications read",
    auth: 'bearer',
    permission: 'tenant.read',
    params: InboxItemPath,
    status: 200,
  }),
  'inbox.unread': op({
    group: 'notifications',
    method: 'POST',
    path: '/tenants/{tenant_id}/inbox/{notification_id}/unread',
    summary: "Mark one of the caller's in-app notifications unread again",
    auth: 'bearer',
    permission: 'tenant.read',
    params: InboxItemPath,
    status: 200,
  }),
  'inbox.readAll': op({
    group: 'notifications',
    method: 'POST',
    path: '/tenants/{tenant_id}/inbox/read-all',
    summary: "Mark all of the caller's unread in-app notifications read, or those of one category",
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    body: InboxReadAll,
    status: 200,
  }),
} as const;
