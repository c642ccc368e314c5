import { MetricUnit } from '@aws-lambda-powertools/metrics';
import {
  createNotification,
  decideReviewItem,
  getNotification,
  listNotifications,
  listReviewItems,
} from '#shared/domain/notifications/use-cases';
import { decideIntegrationIssue } from '#shared/domain/integrations/review';
import { decideExportReview } from '#shared/domain/accounting/review';
import { decideWorkflowAction } from '#shared/domain/workflows/review';
import { PolicyRejectedError } from '#shared/kernel/errors';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { NOTIFICATIONS_OPERATIONS } from '#shared/api/operations/notifications';
import { exportDecisionStore } from '#functions/adapters/accounting-store';
import { dbFor } from '#functions/adapters/dynamo';
import { issueDecisionStore } from '#functions/adapters/issue-store';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { workflowJobStore } from '#functions/adapters/workflow-job-store';
import { allowLoopbackWebhooks, clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';
import { logger, metricsFor } from '#functions/observability';

const db = dbFor(tableConfig());
const workflowReviews = { jobs: workflowJobStore(db), clock };
const exportReviews = { exports: exportDecisionStore(db), clock };
const deps = {
  notifications: notificationStore(db),
  clock,
  allowLoopbackWebhooks: allowLoopbackWebhooks(),
  reviewDeciders: {
    workflow_action: decideWorkflowAction.bind(null, workflowReviews),
    integration_issue: decideIntegrationIssue.bind(null, { issues: issueDecisionStore(db), clock }),
    accounting_export: decideExportReview.bind(null, exportReviews),
  },
};
const metrics = metricsFor('notifications');

export const handler = httpHandler(
  NOTIFICATIONS_OPERATIONS,
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
    'reviewItems.list': ({ params, query: { limit, cursor, ...filter } }) =>
      listReviewItems(deps, params.tenant_id, filter, { limit, cursor }),
    'reviewItems.decide': async ({ principal, params, body }) => {
      const decided = await decideReviewItem(deps, principal, params.tenant_id, params.review_item_id, body);
      logger.info('review item decided', {
        event: LOG_EVENTS.reviewDecided,
        tenant_id: decided.tenant_id,
        review_item_id: decided.id,
        kind: decided.kind,
        notification_id: decided.notification_id,
        action: decided.decision,
      });
      return decided;
    },
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
