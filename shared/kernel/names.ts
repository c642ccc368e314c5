/**
 * Names that cross module and process boundaries: event kinds, queues, metrics, log events and
 * alarms. The code, the CDK alarms and dashboard, the runbooks and the public delivery contract
 * all read them from here, so they cannot drift apart.
 */

export const SERVICE = 'ops-platform';
export const METRIC_NAMESPACE = 'OpsPlatform';

export const EVENT_KINDS = {
  notificationDeliveryRequested: 'notification.delivery.requested',
  /** A change a workflow rule may act on (docs/api.md section 9.1), with its entity's snapshot. */
  workflowEventRecorded: 'workflow.event_recorded',
  /** A review decision to run a failed workflow rule action once more. */
  workflowActionRetryRequested: 'workflow.action_retry_requested',
  /** A review decision to run a connection's diagnostics again (docs/api.md section 9.4). */
  integrationDiagnosticsRequested: 'integration.diagnostics_requested',
  /** A reconciliation run to do (docs/api.md section 9.3). */
  reconciliationRunRequested: 'reconciliation.run_requested',
  /** An accounting export to send (docs/api.md section 9.2): it leaves the system. */
  accountingExportRequested: 'accounting.export_requested',
  /** A due timer claimed by the timer sweeper (docs/api.md, "Time"); the internal worker acts on it. */
  timerFired: 'timer.fired',
} as const;

/** Which queue carries each event kind; the relay and the sweeper route by it (docs/api.md section 7). */
export const queueForEvent = (kind: string, payload: { channel?: unknown }): QueueName =>
  (kind === EVENT_KINDS.notificationDeliveryRequested && payload.channel !== 'in_app') ||
  kind === EVENT_KINDS.accountingExportRequested
    ? QUEUES.external
    : QUEUES.internal;
export type EventKind = (typeof EVENT_KINDS)[keyof typeof EVENT_KINDS];

/** Logical queue names; CDK and the local runtime derive physical names from them. */
export const QUEUES = {
  internal: 'internal-delivery',
  external: 'external-delivery',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const dlqName = (queue: QueueName): string => `${queue}-dlq`;

/**
 * Worker invocations that may run at once per queue: the event source mapping's maximum
 * concurrency in the cloud (protects the table and the providers), the local consumer's too.
 */
export const WORKER_MAX_CONCURRENCY = 5;

export const METRICS = {
  apiRequest: 'ApiRequest',
  apiLatency: 'ApiLatency',
  apiServerError: 'ApiServerError',
  apiClientError: 'ApiClientError',
  loginFailed: 'LoginFailed',
  outboxWritten: 'OutboxWritten',
  relayPublished: 'RelayPublished',
  relayFailed: 'RelayFailed',
  relayLag: 'RelayLagMs',
  sweeperRepublished: 'SweeperRepublished',
  /** The operator snapshot's table figures (GET /ops/metrics), recorded each time it is read. */
  outboxPending: 'OutboxPending',
  outboxOldestAge: 'OutboxOldestAgeSeconds',
  reviewItemsOpen: 'ReviewItemsOpen',
  notificationQueued: 'NotificationQueued',
  notificationBlocked: 'NotificationBlocked',
  notificationDelivered: 'NotificationDelivered',
  notificationRetried: 'NotificationRetried',
  notificationGated: 'NotificationGated',
  notificationDeadLettered: 'NotificationDeadLettered',
  notificationDeliveryLatency: 'NotificationDeliveryLatencyMs',
  reviewItemOpened: 'ReviewItemOpened',
  notificationDuplicate: 'NotificationDuplicateSkipped',
  workerFailed: 'WorkerRecordFailed',
  workflowRuleFired: 'WorkflowRuleFired',
  /** A rule action that could not be done (refused by policy, invalid once filled, or failing). */
  workflowActionFailed: 'WorkflowActionFailed',
  /** A rule action that kept failing with an error until its last attempt (not a refusal). */
  workflowActionErrored: 'WorkflowActionErrored',
  accountingExported: 'AccountingExported',
  accountingExportRetried: 'AccountingExportRetried',
  accountingExportGated: 'AccountingExportGated',
  /** An export that ended `failed` or `partially_exported`, with a review item. */
  accountingExportFailed: 'AccountingExportFailed',
  /** Timers the timer sweeper claimed (each one firing). */
  timerFired: 'TimerFired',
  /** From a timer's due time to the worker acting on its firing. */
  timerLag: 'TimerLagMs',
} as const;

/** The `event` field of structured log lines that dashboards and runbooks query for. */
export const LOG_EVENTS = {
  request: 'http.request',
  unhandledError: 'http.unhandled_error',
  dependencyUnavailable: 'http.dependency_unavailable',
  loginFailed: 'auth.login_failed',
  outboxRelayed: 'outbox.relayed',
  outboxRelayFailed: 'outbox.relay_failed',
  outboxRepublished: 'outbox.republished',
  notificationDelivered: 'notification.delivered',
  notificationRetry: 'notification.retry',
  notificationGated: 'notification.gated',
  notificationDeadLettered: 'notification.dead_lettered',
  reviewDecided: 'review_item.decided',
  notificationQueued: 'notification.queued',
  notificationBlocked: 'notification.blocked',
  notificationDelivering: 'notification.delivering',
  notificationDuplicate: 'notification.duplicate_skipped',
  notificationPermanentFailure: 'notification.permanent_failure',
  workerRecordFailed: 'worker.record_failed',
  idempotencyAnswerNotKept: 'idempotency.answer_not_kept',
  workflowRuleFired: 'workflow_rule.fired',
  workflowActionFailed: 'workflow_rule.action_failed',
  integrationDiagnostics: 'integration.diagnostics_run',
  reconciliationCompleted: 'reconciliation_run.completed',
  reconciliationFailed: 'reconciliation_run.failed',
  accountingExportRun: 'accounting_export.run',
  timersSwept: 'timer.swept',
  timerFired: 'timer.fired',
} as const;

/**
 * Alarm names; each has a runbook at `runbooks/<name>.md`. Per-function and per-queue alarms are
 * formed with the helpers below so the runbook names stay fixed.
 */
export const ALARMS = {
  api5xxRate: 'api-5xx-rate',
  apiLatencyP99: 'api-latency-p99',
  functionErrors: 'function-errors',
  functionThrottles: 'function-throttles',
  dlqNotEmpty: 'dlq-not-empty',
  queueOldestMessageAge: 'queue-oldest-message-age',
  relayIteratorAge: 'relay-iterator-age',
  relayFailures: 'relay-failures',
  outboxRelayLag: 'outbox-relay-lag',
  outboxSweeperRepublished: 'outbox-sweeper-republished',
  workflowActionErrors: 'workflow-action-errors',
  accountingExportFailures: 'accounting-export',
  timerLate: 'timer-late',
} as const;
export type AlarmName = (typeof ALARMS)[keyof typeof ALARMS];

/**
 * The keys of the integration hub's adapter catalog (shared/domain/integrations/adapters/), for
 * the places that must name an adapter without carrying its declaration (a preview's intake
 * `source`); tests/unit/integrations-catalog.test.ts holds the two lists equal.
 */
export const ADAPTER_KEYS = [
  'telegram',
  'email',
  'sms',
  'webhook',
  'ledgerly',
  'tallybook',
  'bank_feed',
  'crm',
] as const;
