import { TenantPath } from '#shared/api/schemas/common';
import {
  NotificationCreate,
  NotificationListQuery,
  NotificationPath,
} from '#shared/api/schemas/notifications';
import { op } from './operation';

/** Notifications (docs/api.md section 7). */
export const NOTIFICATIONS_OPERATIONS = {
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
  }),
} as const;
