/**
 * Names that cross module and process boundaries: event kinds, queues, metrics, log events and
 * alarms. The code, the CDK alarms and dashboard, the runbooks and the public delivery contract
 * all read them from here, so they cannot drift apart.
 */

import { queueKeyFor } from './events';

export const SERVICE = 'ops-platform';
export const METRIC_NAMESPACE = 'OpsPlatform';

/**
 * The event kinds, one per row of the event manifest (./events.ts), where each kind's queue and
 * payload are declared; kept under this name for the code and the public delivery contract.
 */
export { EVENT_KINDS, type EventKind } from './events';

/** Which queue carries an event, by its manifest row; the relay and the sweeper route by it (docs/api.md section 7). */
export const queueForEvent = (kind: string, payload: Record<string, unknown>): QueueName =>
  QUEUES[queueKeyFor(kind, payload)];

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
  notificationSuppressed: 'NotificationSuppressed',
  /** Held by the member's quiet hours, then released by its timer. */
  notificationScheduled: 'NotificationScheduled',
  /** Held for a digest (each held one), then sent in one digest message. */
  notificationDigesting: 'NotificationDigesting',
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
  /**
   * From a timer's due time to the worker acting on its firing; the sweeper also writes it for a
   * due timer of a kind this build cannot fire (left armed), so the timer-late alarm goes off.
   */
  timerLag: 'TimerLagMs',
  /** A token endpoint refused the service's own app (invalid_client): one count per refused call. */
  oauthAppCredentialsInvalid: 'OAuthAppCredentialsInvalid',
  /** Due timers the sweeper left armed because this build knows no firing for their kind. */
  timerUnknownKind: 'TimerUnknownKind',
} as const;

/**
 * The webhook workers' metric and log event names (docs/api.md, "Event subscriptions"): apart
 * from METRICS and LOG_EVENTS, which every API function bundles whole, so that only the workers
 * carry them. Messages the fan-out wrote, attempts delivered, failed for good, endpoints disabled.
 */
export const WEBHOOK_NAMES = {
  messagesFannedOut: 'WebhookMessagesFannedOut',
  delivered: 'WebhookDelivered',
  failed: 'WebhookFailed',
  endpointDisabled: 'WebhookEndpointDisabled',
  fannedOutLog: 'webhook.fanned_out',
  attemptLog: 'webhook.attempt',
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
  notificationSuppressed: 'notification.suppressed',
  notificationScheduled: 'notification.scheduled',
  notificationDigesting: 'notification.digesting',
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
  timerUnknownKind: 'timer.unknown_kind',
  workflowRuleReplayed: 'workflow_rule.replayed',
  timerFired: 'timer.fired',
  timersRezoned: 'timer.rezoned',
  oauthAppCredentialsInvalid: 'oauth.app_credentials_invalid',
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
  oauthAppCredentials: 'oauth-app-credentials',
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
  'xero',
  'quickbooks_online',
  'ledgerly',
  'tallybook',
  'bank_feed',
  'crm',
] as const;
