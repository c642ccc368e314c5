import type { Clock } from '#shared/kernel/ids';
import { derivedId, newId } from '#shared/kernel/ids';
import type { PageRequest } from '#shared/kernel/page';
import { EVENT_KINDS } from '#shared/kernel/names';
import { auditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import type { TaskStore } from '#shared/domain/tasks/ports';
import { type EscalationFireDeps, fireAckTimeout, fireEscalation } from '#shared/domain/escalation/firing';
import { fireDigest, fireRelease, type HeldFireDeps } from '#shared/domain/notifications/held';
import { OPEN_TASK } from './arming';
import type { OccurrenceResult, TaskDueStore, Timer, TimerFilter, TimerStore } from './ports';
import { type DocumentDueDeps, fireDocumentDue } from './document-due';
import { fireRuleSchedule, type RuleScheduleDeps } from './rule-schedule';
import { fireHubSchedule, type HubScheduleDeps } from './hub-schedule';
import { fireWebhookRetry, type WebhookRetryDeps } from '#shared/domain/webhooks/retry';

/** The outbox event of one firing: the timer as it was claimed, for the internal worker. */
export function timerFired(clock: Clock, timer: Timer): OutboxEvent {
  const eventId = newId();
  return {
    event_id: eventId,
    kind: EVENT_KINDS.timerFired,
    tenant_id: timer.tenant_id,
    idempotency_key: `timer:${timer.tenant_id}:${timer.id}:${timer.due_at}`,
    occurred_at: clock.now().toISOString(),
    payload: { ...timer },
  };
}

export interface SweepDeps {
  timers: TimerStore;
  clock: Clock;
}

/** Timers claimed per sweep page; a sweep goes on until none is due. */
export const SWEEP_PAGE = 100;

/**
 * One sweep (the scheduled timer sweeper; the local runtime after every clock move): every timer
 * due by now is claimed once, its firing written to the outbox in the claim's transaction, so it
 * reaches the internal worker through the relay (retries, DLQ and redrive as for any job). A
 * sweep that crashes before a claim leaves the timer pending for the next one; after it, the
 * outbox holds the firing. Never early: only timers with `due_at <= now` are read.
 */
export async function sweepTimers(deps: SweepDeps): Promise<{ fired: Timer[]; gone: number }> {
  const fired: Timer[] = [];
  let gone = 0;
  const now = deps.clock.now().toISOString();
  for (;;) {
    const due = await deps.timers.dueBy(now, SWEEP_PAGE);
    // A page's claims run together: one at a time, 10,000 timers due in one minute would take
    // longer than the sweep spacing on their own (a claim is one transaction, about 10 ms).
    const results = await Promise.all(
      due.map((timer) => deps.timers.claim(timer, timerFired(deps.clock, timer))),
    );
    let claimed = 0;
    results.forEach((result, i) => {
      if (result === 'fired') {
        fired.push(due[i]!);
        claimed++;
      } else gone++;
    });
    if (due.length < SWEEP_PAGE || claimed === 0) break;
  }
  return { fired, gone };
}

export interface FireDeps extends DocumentDueDeps, RuleScheduleDeps {
  tasks: Pick<TaskStore, 'get'>;
  taskDue: TaskDueStore;
  clock: Clock;
  /** The `escalation` and `ack_timeout` kinds (shared/domain/escalation/firing.ts). */
  escalation?: EscalationFireDeps;
  /** The `hub_schedule` kind (./hub-schedule.ts). */
  hub?: HubScheduleDeps;
  /**
   * The `oauth_refresh` kind (shared/domain/oauth/refresh-timer.ts), given by the worker as a
   * function so that the timer sweeper, which bundles this module, does not bundle the adapters.
   */
  oauthRefresh?: (timer: Timer) => Promise<OccurrenceResult>;
  /** The `export_window` kind (shared/domain/accounting/export-window.ts), given the same way. */
  exportWindow?: (timer: Timer) => Promise<OccurrenceResult>;
  /** The `notification_release` and `notification_digest` kinds (shared/domain/notifications/held.ts). */
  held?: HeldFireDeps;
  /** The `webhook_retry` kind (shared/domain/webhooks/retry.ts). */
  webhooks?: WebhookRetryDeps;
}

export type FireOutcome = OccurrenceResult | 'unknown_kind';

/** A firing reached the worker before its time by another process's clock: retry, never act early. */
export class NotYetDueError extends Error {}

/**
 * The internal worker's side of a firing: re-read the subject and act only if the state the timer
 * was armed for still holds (a stale timer does nothing). Each act writes its audit event under
 * an id derived from the subject and the due time, so a redelivered firing writes nothing twice.
 */
export async function fireTimer(deps: FireDeps, event: OutboxEvent): Promise<FireOutcome> {
  const timer = event.payload as unknown as Timer;
  if (deps.clock.now().getTime() < Date.parse(timer.due_at))
    throw new NotYetDueError(`timer ${timer.id} is due at ${timer.due_at}`);
  if (timer.kind === 'task_due') return fireTaskDue(deps, timer);
  if (timer.kind === 'document_due') return fireDocumentDue(deps, timer);
  if (timer.kind === 'rule_schedule') return fireRuleSchedule(deps, timer);
  if (timer.kind === 'escalation' && deps.escalation) return fireEscalation(deps.escalation, timer);
  if (timer.kind === 'ack_timeout' && deps.escalation) return fireAckTimeout(deps.escalation, timer);
  if (timer.kind === 'hub_schedule' && deps.hub) return fireHubSchedule(deps.hub, timer);
  if (timer.kind === 'oauth_refresh' && deps.oauthRefresh) return deps.oauthRefresh(timer);
  if (timer.kind === 'export_window' && deps.exportWindow) return deps.exportWindow(timer);
  if (timer.kind === 'notification_release' && deps.held) return fireRelease(deps.held, timer);
  if (timer.kind === 'notification_digest' && deps.held) return fireDigest(deps.held, timer);
  if (timer.kind === 'webhook_retry' && deps.webhooks) return fireWebhookRetry(deps.webhooks, timer);
  return 'unknown_kind';
}

async function fireTaskDue(deps: FireDeps, timer: Timer): Promise<OccurrenceResult> {
  const task = await deps.tasks.get(timer.tenant_id, timer.subject_id);
  if (!task || !OPEN_TASK.has(task.status) || !task.due_at) return 'stale';
  if (Date.parse(task.due_at) !== Date.parse(timer.due_at)) return 'stale';
  const audit = {
    ...auditEvent(deps.clock, {
      tenant_id: task.tenant_id,
      event_type: 'task.overdue',
      actor_id: null,
      entity_type: 'task',
      entity_id: task.id,
      summary: `due ${timer.due_at}`,
      metadata: { due_at: timer.due_at },
    }),
    id: derivedId(timer.due_at, 'task.overdue', task.tenant_id, task.id, timer.due_at),
  };
  return deps.taskDue.recordOverdue(
    { tenant_id: task.tenant_id, id: task.id, due_at: timer.due_at },
    audit,
    workflowEventRecorded(deps.clock, 'task.overdue', task),
  );
}

export const listTimers = (
  deps: { timers: TimerStore },
  tenantId: string,
  filter: TimerFilter,
  page: PageRequest,
) => deps.timers.list(tenantId, filter, page);
