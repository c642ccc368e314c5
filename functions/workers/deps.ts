import type { ExportRunDeps } from '#shared/domain/accounting/export-run';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import type { DeliveryDeps } from '#shared/domain/notifications/delivery';
import { DELIVERY_BACKOFF, DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import type { HubDeps } from '#shared/domain/integrations/diagnostics';
import type { ReconciliationWorkerDeps } from '#shared/domain/integrations/reconciliation';
import type { WorkflowRunDeps } from '#shared/domain/workflows/runner';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import { documentStore } from '#functions/adapters/document-store';
import { exceptionStore } from '#functions/adapters/exception-store';
import { tenantZones } from '#functions/adapters/tenant-zone';
import { escalationPolicyStore } from '#functions/adapters/escalation-policy-store';
import { providerReader } from '#functions/adapters/provider-reader';
import { hubStore } from '#functions/adapters/hub-store';
import { reconciliationStore } from '#functions/adapters/reconciliation-store';
import { accountingStore } from '#functions/adapters/accounting-store';
import { accountingTargets } from '#functions/adapters/accounting-targets';
import { oauthRecords } from '#functions/adapters/oauth-records';
import { oauthTokenDeps, tokenFor } from '#functions/adapters/oauth-tokens';
import { type Db, dbFor } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { providerSender } from '#functions/adapters/providers';
import { sqsClient } from '#functions/adapters/queue';
import { taskStore } from '#functions/adapters/task-store';
import { timerWait } from '#functions/adapters/timer';
import { armTimer } from '#functions/adapters/timer-arm';
import { workflowJobStore } from '#functions/adapters/workflow-job-store';
import { workflowRunStore } from '#functions/adapters/workflow-run-store';
import { workflowReplayStore } from '#functions/adapters/workflow-replay-store';
import { runSubjects } from '#shared/domain/workflows/subjects';
import { workflowRuleStore } from '#functions/adapters/workflow-rule-store';
import { webhookEndpointStore, webhookSecrets } from '#functions/adapters/webhook-endpoint-store';
import { webhookMessageStore } from '#functions/adapters/webhook-message-store';
import { webhookSender } from '#functions/adapters/webhook-sender';
import type { DeliveryDeps as WebhookDeliveryDeps } from '#shared/domain/webhooks/delivery';
import type { FanOutDeps } from '#shared/domain/webhooks/fan-out';
import {
  allowLoopback,
  clock,
  connectionSecretSettings,
  deliveryOverrides,
  hubSettings,
  oauthSettings,
  providerSettings,
  queueConfig,
  tableConfig,
} from '#functions/config';
import type { QueueKey } from '#shared/kernel/events';
import { createQueueWorker, type KindHandlers, type WorkerQueue } from './queue-worker';

/** The delivery policy, as configured (the local runtime and tests shorten it). */
export function deliveryDeps(db: Db): DeliveryDeps {
  const o = deliveryOverrides();
  return {
    store: notificationStore(db),
    connections: activeConnectionReader(
      connectionStore(db),
      connectionSecretsFor(connectionSecretSettings()),
    ),
    results: connectionResults(db),
    providers: providerSender(providerSettings(), allowLoopback()),
    clock,
    maxAttempts: o.maxAttempts ?? DELIVERY_MAX_ATTEMPTS,
    backoff: {
      baseSeconds: o.baseSeconds ?? DELIVERY_BACKOFF.baseSeconds,
      capSeconds: o.capSeconds ?? DELIVERY_BACKOFF.capSeconds,
    },
    leaseSeconds: o.leaseSeconds ?? 60,
  };
}

/** The workers' OAuth 2 access tokens: the only readers (and, on refresh, writers) of token pairs. */
const workerTokens = (db: Db) =>
  tokenFor(oauthTokenDeps(db, oauthSettings(), connectionSecretsFor(connectionSecretSettings()), clock));

/** The accounting export's run: the delivery policy's attempts and backoff, the hub's connections. */
export function exportRunDeps(db: Db): ExportRunDeps {
  const { maxAttempts, backoff, leaseSeconds, results } = deliveryDeps(db);
  return {
    exports: accountingStore(db),
    connections: activeConnectionReader(
      connectionStore(db),
      connectionSecretsFor(connectionSecretSettings()),
    ),
    results,
    targets: accountingTargets(providerSettings(), { settings: oauthSettings(), token: workerTokens(db) }),
    clock,
    wait: timerWait,
    maxAttempts,
    backoff,
    leaseSeconds,
    queueSecondMs: deliveryOverrides().queueSecondMs ?? 1000,
    armWindow: (t) => armTimer(db, t),
  };
}

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
    maxAttempts: deliveryOverrides().maxAttempts ?? DELIVERY_MAX_ATTEMPTS,
  };
}

/** What the integration hub's runs need on the internal worker: the table and the providers over HTTP. */
export function hubRunDeps(db: Db): HubDeps & ReconciliationWorkerDeps {
  return {
    connections: connectionStore(db),
    hub: hubStore(db),
    provider: providerReader(hubSettings(), (c) => oauthRecords(oauthSettings(), workerTokens(db), c)),
    runs: reconciliationStore(db),
    documents: documentStore(db),
    exceptions: exceptionStore(db),
    policies: escalationPolicyStore(db),
    clock,
    maxAttempts: deliveryOverrides().maxAttempts ?? DELIVERY_MAX_ATTEMPTS,
  };
}

/** The longest wait a queue message can carry itself (SQS visibility: 12 hours). */
const VISIBILITY_MAX_S = 43_200;

/**
 * Whether a webhook queue message carries a wait by its visibility: while it has receives to
 * spare before its queue's redrive limit (`receives`, the delivery policy's attempt limit) and the
 * wait is at most 12 hours; otherwise the wait is a `webhook_retry` timer, whose firing queues a
 * fresh message (docs/decisions.md). The same rule for a failed attempt's wait and an early copy's.
 */
export const webhookQueueCarries =
  (receives: number) =>
  (receiveCount: number, seconds: number): boolean =>
    seconds <= VISIBILITY_MAX_S && receiveCount < receives - 1;

/** Webhook delivery on the external worker (docs/api.md, "Event subscriptions"). */
export function webhookDeliveryDeps(db: Db): WebhookDeliveryDeps {
  return {
    endpoints: webhookEndpointStore(db),
    messages: webhookMessageStore(db),
    secrets: webhookSecrets(connectionSecretsFor(connectionSecretSettings())),
    sender: webhookSender({
      allowLoopback: allowLoopback(),
      timeoutMs: providerSettings().timeoutMs,
      maxResponseBytes: 64 * 1024,
    }),
    clock,
    leaseSeconds: deliveryOverrides().leaseSeconds ?? 60,
    queueCarries: webhookQueueCarries(deliveryOverrides().maxAttempts ?? DELIVERY_MAX_ATTEMPTS),
    armTimer: (t) => armTimer(db, t),
    probeSeconds: Math.ceil(providerSettings().timeoutMs / 1000) + 1,
  };
}

/** The webhook fan-out on the internal worker. */
export const webhookFanOutDeps = (db: Db): FanOutDeps => ({
  endpoints: webhookEndpointStore(db),
  messages: webhookMessageStore(db),
  clock,
});

/**
 * A queue's worker handler over the configured table and queue. `bind` answers a handler for
 * every kind the event manifest puts on that queue (the type says which), built from `db` and the
 * worker's own queue; each worker file binds only its queue's kinds, so it bundles only their code.
 */
export function workerHandler<Q extends QueueKey>(
  queue: Q,
  bind: (db: Db, queue: WorkerQueue) => KindHandlers<Q>,
) {
  const queues = queueConfig();
  const db = dbFor(tableConfig());
  return createQueueWorker(queue, bind(db, { sqs: sqsClient(queues), queueUrl: queues[queue] }));
}
