import type { WorkflowRunDeps } from '#shared/domain/workflows/runner';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { taskStore } from '#functions/adapters/task-store';
import { workflowJobStore } from '#functions/adapters/workflow-job-store';
import { workflowRuleStore } from '#functions/adapters/workflow-rule-store';
import { workflowRunStore } from '#functions/adapters/workflow-run-store';
import { workflowReplayStore } from '#functions/adapters/workflow-replay-store';
import { exceptionStore } from '#functions/adapters/exception-store';
import { escalationPolicyStore } from '#functions/adapters/escalation-policy-store';
import { documentStore } from '#functions/adapters/document-store';
import { tenantZones } from '#functions/adapters/tenant-zone';
import { runSubjects } from '#shared/domain/workflows/subjects';
import { allowLoopback, clock } from '#functions/config';
import { deliveryPolicy } from './delivery-policy';

/**
 * What workflow rules need on the internal worker: the same table, and notifications drafted as
 * the API drafts them. The queue's receive limit is the delivery policy's attempt limit.
 */
export function workflowRunDeps(db: Db): WorkflowRunDeps {
  return {
    rules: workflowRuleStore(db),
    jobs: workflowJobStore(db),
    runs: workflowRunStore(db),
    replays: workflowReplayStore(db),
    subjects: runSubjects({
      exceptions: { exceptions: exceptionStore(db), clock, policies: escalationPolicyStore(db) },
      tasks: { tasks: taskStore(db), clock },
      documents: { documents: documentStore(db), clock, zones: tenantZones(db) },
    }),
    tasks: taskStore(db),
    notifications: {
      notifications: notificationStore(db),
      clock,
      allowLoopback: allowLoopback(),
    },
    clock,
    maxAttempts: deliveryPolicy().maxAttempts,
  };
}
