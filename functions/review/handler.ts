import { decideExportReview } from '#shared/domain/accounting/review';
import { decideIntegrationIssue } from '#shared/domain/integrations/review';
import { decideReviewItem, listReviewItems } from '#shared/domain/notifications/use-cases';
import { decideWorkflowAction } from '#shared/domain/workflows/review';
import { decideEndpointReview } from '#shared/domain/webhooks/review';
import { LOG_EVENTS } from '#shared/kernel/names';
import { REVIEW_OPERATIONS } from '#shared/api/operations/review';
import { exportDecisionStore } from '#functions/adapters/accounting-store';
import { dbFor } from '#functions/adapters/dynamo';
import { issueDecisionStore } from '#functions/adapters/issue-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { workflowJobStore } from '#functions/adapters/workflow-job-store';
import { workflowRuleStore } from '#functions/adapters/workflow-rule-store';
import { workflowRunStore } from '#functions/adapters/workflow-run-store';
import { endpointReviewStore } from '#functions/adapters/webhook-endpoint-review';
import { allowLoopback, clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { logger } from '#functions/observability';

const db = dbFor(tableConfig());
const deps = {
  notifications: notificationStore(db),
  clock,
  allowLoopback: allowLoopback(),
  // A notification item is decided by the notification path itself; every other kind by its own.
  reviewDeciders: {
    workflow_action: decideWorkflowAction.bind(null, {
      jobs: workflowJobStore(db),
      runs: workflowRunStore(db),
      rules: workflowRuleStore(db),
      clock,
    }),
    integration_issue: decideIntegrationIssue.bind(null, { issues: issueDecisionStore(db), clock }),
    accounting_export: decideExportReview.bind(null, { exports: exportDecisionStore(db), clock }),
    webhook_endpoint: decideEndpointReview.bind(null, { endpoints: endpointReviewStore(db), clock }),
  },
};

export const handler = httpHandler(
  REVIEW_OPERATIONS,
  {
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
  { tenantExists: tenantExistsIn(db) },
);
