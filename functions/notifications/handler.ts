import { MetricUnit } from '@aws-lambda-powertools/metrics';
import {
  createNotification,
  getNotification,
  listNotifications,
  shown,
} from '#shared/domain/notifications/use-cases';
import { PolicyRejectedError } from '#shared/kernel/errors';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { NOTIFICATIONS_OPERATIONS } from '#shared/api/operations/notifications';
import { dbFor } from '#functions/adapters/dynamo';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { digestStore } from '#functions/adapters/notification-holds';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { allowLoopback, clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';
import { logger, metricsFor } from '#functions/observability';

const db = dbFor(tableConfig());
const deps = {
  notifications: notificationStore(db),
  digests: digestStore(db),
  clock,
  allowLoopback: allowLoopback(),
};
const metrics = metricsFor('notifications');

/** A draft accepted without being queued: what it counts and logs (docs/api.md sections 7.3, 7.4). */
const HELD: Partial<Record<string, { metric: string; event: string }>> = {
  suppressed: { metric: METRICS.notificationSuppressed, event: LOG_EVENTS.notificationSuppressed },
  scheduled: { metric: METRICS.notificationScheduled, event: LOG_EVENTS.notificationScheduled },
  digesting: { metric: METRICS.notificationDigesting, event: LOG_EVENTS.notificationDigesting },
};

/** Notifications: create, get and list (docs/api.md section 7). */
export const handler = httpHandler(
  NOTIFICATIONS_OPERATIONS,
  {
    'notifications.create': async ({ principal, params, body }) => {
      try {
        const n = shown(await createNotification(deps, principal, params.tenant_id, body));
        const held = HELD[n.status];
        if (held) {
          metrics.addMetric(held.metric, MetricUnit.Count, 1);
          logger.info(`notification ${n.status}`, {
            event: held.event,
            tenant_id: n.tenant_id,
            notification_id: n.id,
            channel: n.channel,
            reason: n.attempts.at(-1)?.reason ?? null,
          });
          return n;
        }
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
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
