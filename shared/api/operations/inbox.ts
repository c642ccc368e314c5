import { TenantPath } from '#shared/api/schemas/common';
import { InboxItemPath, InboxListQuery, InboxReadAll } from '#shared/api/schemas/inbox';
import { PreferencesPut } from '#shared/api/schemas/preferences';
import { op } from './operation';

/**
 * The caller's own in-app inbox in a tenant (docs/api.md section 7.1), a route group of its own:
 * every member's first screen reads it, so its function carries only the inbox (the notifications
 * group's policy check and delivery records stay out of its bundle and its cold start). Every
 * member reads their own items only; reading is not audited.
 */
export const INBOX_OPERATIONS = {
  'inbox.list': op({
    group: 'inbox',
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
    group: 'inbox',
    method: 'GET',
    path: '/tenants/{tenant_id}/inbox/summary',
    summary: "Count the caller's unread in-app notifications, in all and by category",
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    status: 200,
  }),
  'inbox.read': op({
    group: 'inbox',
    method: 'POST',
    path: '/tenants/{tenant_id}/inbox/{notification_id}/read',
    summary: "Mark one of the caller's in-app notifications read",
    auth: 'bearer',
    permission: 'tenant.read',
    params: InboxItemPath,
    status: 200,
  }),
  'inbox.unread': op({
    group: 'inbox',
    method: 'POST',
    path: '/tenants/{tenant_id}/inbox/{notification_id}/unread',
    summary: "Mark one of the caller's in-app notifications unread again",
    auth: 'bearer',
    permission: 'tenant.read',
    params: InboxItemPath,
    status: 200,
  }),
  'inbox.readAll': op({
    group: 'inbox',
    method: 'POST',
    path: '/tenants/{tenant_id}/inbox/read-all',
    summary: "Mark all of the caller's unread in-app notifications read, or those of one category",
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    body: InboxReadAll,
    status: 200,
  }),
  'preferences.get': op({
    group: 'inbox',
    method: 'GET',
    path: '/tenants/{tenant_id}/me/preferences',
    summary: "The caller's own notification preferences in the tenant: contacts, mutes, quiet hours",
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    status: 200,
  }),
  'preferences.put': op({
    group: 'inbox',
    method: 'PUT',
    path: '/tenants/{tenant_id}/me/preferences',
    summary:
      "Replace the caller's own notification preferences in the tenant (audited without the addresses)",
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    body: PreferencesPut,
    status: 200,
  }),
} as const;
