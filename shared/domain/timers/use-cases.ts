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
import type { OccurrenceResult, TaskDueStore, Timer, TimerFilter, TimerKind, TimerStore } from './ports';
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

export interface SweepResult {
  fired: Timer[];
  gone: number;
  /** Due timers of a kind this build cannot fire: left armed, not claimed. */
  unknown: Timer[];
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
export async function sweepTimers(deps: SweepDeps): Promise<SweepResult> {
  const fired: Timer[] = [];
  const unknown = new Map<string, Timer>();
  let gone = 0;
  const now = deps.clock.now().toISOString();
  for (;;) {
    const read = await deps.timers.dueBy(now, SWEEP_PAGE);
    // A kind this build cannot fire is left armed (a claim would delete it and lose the firing);
    // the caller reports it, so the timer alarm goes off while it waits for a build that knows it.
    const due = read.filter((timer) => isFireableKind(timer.kind));
    for (const timer of read)
      if (!isFireableKind(timer.kind)) unknown.set(`${timer.tenant_id}:${timer.id}`, timer);
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
    if (read.length < SWEEP_PAGE || claimed === 0) break;
  }
  return { fired, gone, unknown: [...unknown.values()] };
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
  /** The `rule_delay` kind: a waiting workflow run goes on (shared/domain/workflows/delay.ts). */
  ruleDelay?: (timer: Timer) => Promise<OccurrenceResult>;
}

export type FireOutcome = OccurrenceResult;

/** A firing reached the worker before its time by another process's clock: retry, never act early. */
export class NotYetDueError extends Error {}

/**
 * A firing this process cannot act on: a kind it does not know (a timer written by a newer
 * deploy) or one whose dependencies it was not given. Thrown, never answered: the queue retries
 * the firing and in the end dead-letters it (dlq-not-empty), so it is kept, not lost.
 */
export class UnfireableTimerError extends Error {}

const wired = <D>(dep: D | undefined, timer: Timer): D => {
  if (dep === undefined) throw new UnfireableTimerError(`no dependencies for timer kind ${timer.kind}`);
  return dep;
};

type Firer = (deps: FireDeps, timer: Timer) => Promise<OccurrenceResult>;

/**
 * What each timer kind does when it fires, one row per kind: a kind in TIMER_KINDS without a row
 * (or a row for no kind) fails to compile.
 */
const FIRERS = {
  task_due: (deps, timer) => fireTaskDue(deps, timer),
  document_due: (deps, timer) => fireDocumentDue(deps, timer),
  rule_schedule: (deps, timer) => fireRuleSchedule(deps, timer),
  escalation: (deps, timer) => fireEscalation(wired(deps.escalation, timer), timer),
  ack_timeout: (deps, timer) => fireAckTimeout(wired(deps.escalation, timer), timer),
  hub_schedule: (deps, timer) => fireHubSchedule(wired(deps.hub, timer), timer),
  oauth_refresh: (deps, timer) => wired(deps.oauthRefresh, timer)(timer),
  export_window: (deps, timer) => wired(deps.exportWindow, timer)(timer),
  notification_release: (deps, timer) => fireRelease(wired(deps.held, timer), timer),
  notification_digest: (deps, timer) => fireDigest(wired(deps.held, timer), timer),
  webhook_retry: (deps, timer) => fireWebhookRetry(wired(deps.webhooks, timer), timer),
  rule_delay: (deps, timer) => wired(deps.ruleDelay, timer)(timer),
} satisfies Record<TimerKind, Firer>;

/** Whether this build knows how to fire a kind (the sweep claims no other timer). */
export const isFireableKind = (kind: string): kind is TimerKind => Object.hasOwn(FIRERS, kind);

/**
 * The internal worker's side of a firing: re-read the subject and act only if the state the timer
 * was armed for still holds (a stale timer does nothing). Each act writes its audit event under
 * an id derived from the subject and the due time, so a redelivered firing writes nothing twice.
 */
export async function fireTimer(deps: FireDeps, event: OutboxEvent): Promise<FireOutcome> {
  const timer = event.payload as unknown as Timer;
  if (deps.clock.now().getTime() < Date.parse(timer.due_at))
    throw new NotYetDueError(`timer ${timer.id} is due at ${timer.due_at}`);
  if (!isFireableKind(timer.kind)) throw new UnfireableTimerError(`unknown timer kind ${timer.kind}`);
  const fire: Firer = FIRERS[timer.kind];
  return fire(deps, timer);
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
