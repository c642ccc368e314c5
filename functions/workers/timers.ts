import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { type FireDeps, fireTimer } from '#shared/domain/timers/use-cases';
import { rezoneTimers } from '#shared/domain/timers/rezone';
import { rezoneStore } from '#functions/adapters/rezone-store';
import { timerStore } from '#functions/adapters/timer-store';
import type { Timer } from '#shared/domain/timers/ports';
import { EVENT_KINDS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { taskStore } from '#functions/adapters/task-store';
import { documentStore } from '#functions/adapters/document-store';
import { documentDueStore } from '#functions/adapters/document-due-store';
import { ruleScheduleStore } from '#functions/adapters/rule-schedule-store';
import { tenantZones } from '#functions/adapters/tenant-zone';
import { workflowRuleStore } from '#functions/adapters/workflow-rule-store';
import { taskDueStore } from '#functions/adapters/timer-store';
import { escalationFireDeps } from '#functions/adapters/escalation-store';
import { connectionStore } from '#functions/adapters/connection-store';
import { hubScheduleStore } from '#functions/adapters/hub-schedule-store';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { oauthTokenDeps } from '#functions/adapters/oauth-tokens';
import { fireOAuthRefresh } from '#shared/domain/oauth/refresh-timer';
import { fireExportWindow } from '#shared/domain/timers/export-window';
import { outboxPut, putOutboxEvent } from '#functions/adapters/outbox';
import type { Db } from '#functions/adapters/dynamo';
import { transact } from '#functions/adapters/transact';
import { fireRuleDelay } from '#shared/domain/workflows/delay';
import type { TokenDeps } from '#shared/domain/oauth/tokens';
import { clock, connectionSecretSettings, oauthSettings } from '#functions/config';
import { notificationStore } from '#functions/adapters/notification-store';
import { digestStore } from '#functions/adapters/notification-holds';
import { webhookMessageStore } from '#functions/adapters/webhook-message-store';
import type { Clock } from '#shared/kernel/ids';
import { logger, metricsFor } from '#functions/observability';
import { kindHandlers } from './queue-worker';

/**
 * What a timer's firing reads and writes; the tests pass the clock they move (and, for the
 * `oauth_refresh` kind, token dependencies over their own secrets and provider).
 */
export const timerFireDeps = (
  db: Db,
  at: Clock = clock,
  tokens: TokenDeps = oauthTokenDeps(
    db,
    oauthSettings(),
    connectionSecretsFor(connectionSecretSettings()),
    at,
  ),
): FireDeps => ({
  tasks: taskStore(db),
  taskDue: taskDueStore(db),
  documents: documentStore(db),
  documentDue: documentDueStore(db),
  rules: workflowRuleStore(db),
  ruleSchedule: ruleScheduleStore(db),
  zones: tenantZones(db),
  clock: at,
  escalation: escalationFireDeps(db, at),
  hub: { connections: connectionStore(db), hubSchedule: hubScheduleStore(db), clock: at },
  oauthRefresh: (timer) => fireOAuthRefresh({ connections: connectionStore(db), tokens }, timer),
  exportWindow: (timer) => fireExportWindow({ clock: at, requeue: (e) => putOutboxEvent(db, e) }, timer),
  held: { notifications: notificationStore(db), digests: digestStore(db), clock: at },
  webhooks: { messages: webhookMessageStore(db), clock: at },
  ruleDelay: (timer) =>
    fireRuleDelay({ clock: at, requeue: async (e) => (await transact(db, [outboxPut(e)])).ok }, timer),
});

/**
 * The internal worker's timer kind (docs/api.md, "Time"): a claimed timer's firing re-reads its
 * subject and acts once. Errors propagate, so the queue retries and, in the end, dead-letters it.
 */
export function timerHandlers(deps: FireDeps, db: Db) {
  const metrics = metricsFor('worker-internal');
  return kindHandlers({
    [EVENT_KINDS.timerFired]: async (event) => {
      const outcome = await fireTimer(deps, event);
      const timer = event.payload as unknown as Timer;
      const lag = deps.clock.now().getTime() - Date.parse(timer.due_at);
      if (outcome === 'written') metrics.addMetric(METRICS.timerLag, MetricUnit.Milliseconds, lag);
      logger.info('timer fired', {
        event: LOG_EVENTS.timerFired,
        tenant_id: event.tenant_id,
        timer_id: timer.id,
        kind: timer.kind,
        due_at: timer.due_at,
        lag_ms: lag,
        outcome,
      });
    },
    [EVENT_KINDS.tenantTimezoneChanged]: async (event) => {
      const { moved } = await rezoneTimers(
        { ...deps, timers: timerStore(db), rezone: rezoneStore(db) },
        event.tenant_id,
        event.occurred_at,
      );
      logger.info('timers moved to the tenant time zone', {
        event: LOG_EVENTS.timersRezoned,
        tenant_id: event.tenant_id,
        timezone: event.payload.timezone,
        moved,
      });
    },
  });
}
