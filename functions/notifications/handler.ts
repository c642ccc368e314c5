import { MetricUnit } from '@aws-lambda-powertools/metrics';
import {
  createNotification,
  getNotification,
  listNotifications,
} from '#shared/domain/notifications/use-cases';
import {
  inboxSummary,
  listInbox,
  markInboxRead,
  markInboxUnread,
  readAllInbox,
} from '#shared/domain/inbox/use-cases';
import { PolicyRejectedError } from '#shared/kernel/errors';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { INBOX_OPERATIONS } from '#shared/api/operations/inbox';
import { NOTIFICATIONS_OPERATIONS } from '#shared/api/operations/notifications';
import { dbFor } from '#functions/adapters/dynamo';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { inboxStore } from '#functions/adapters/inbox-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { allowLoopback, clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';
import { logger, metricsFor } from '#functions/observability';

const db = dbFor(tableConfig());
const deps = {
  notifications: notificationStore(db),
  clock,
  allowLoopback: allowLoopback(),
};
const inbox = { inbox: inboxStore(db), clock };
const metrics = metricsFor('notifications');

/** Notifications, and the caller's in-app inbox they deliver into (docs/api.md section 7.1). */
export const handler = httpHandler(
  { ...NOTIFICATIONS_OPERATIONS, ...INBOX_OPERATIONS },
  {
    'notifications.create': async ({ principal, params, body }) => {
      try {
        const n = await createNotification(deps, principal, params.tenant_id, body);
        metrics.addMetric(METRICS.notificationQueued, MetricUnit.Count, 1);
        metrics.addMetric(METRICS.outboxWritten, MetricUnit.Count, 1);
        logger.info('notification queued', {
          event: LOG_EVENTS.notificationQueued,
          tenant_id: n.tenant_id,
          notification_id: n.id,
          channel: n.channel,
        });
        return n;
      } catch (err) {
        if (err instanceof PolicyRejectedError) {
          metrics.addMetric(METRICS.notificationBlocked, MetricUnit.Count, 1);
          logger.info('notification blocked', {
            event: LOG_EVENTS.notificationBlocked,
            tenant_id: params.tenant_id,
            channel: body.channel,
            reasons: err.errors?.map((e) => e.code),
          });
        }
        throw err;
      }
    },
    'notifications.list': ({ params, query: { limit, cursor, ...filter } }) =>
      listNotifications(deps, params.tenant_id, filter, { limit, cursor }),
    'notifications.get': ({ params }) => getNotification(deps, params.tenant_id, params.notification_id),
    'inbox.list': ({ principal, params, query: { limit, cursor, ...filter } }) =>
      listInbox(inbox, principal, params.tenant_id, filter, { limit, cursor }),
    'inbox.summary': ({ principal, params }) => inboxSummary(inbox, principal, params.tenant_id),
    'inbox.read': ({ principal, params }) =>
      markInboxRead(inbox, principal, params.tenant_id, params.notification_id),
    'inbox.unread': ({ principal, params }) =>
      markInboxUnread(inbox, principal, params.tenant_id, params.notification_id),
    'inbox.readAll': ({ principal, params, body }) => readAllInbox(inbox, principal, params.tenant_id, body),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
