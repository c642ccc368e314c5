import type { Timer } from './timer';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { AuditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { ReconciliationRun } from '#shared/domain/integrations/ports';

/** The timers of docs/api.md, "Time": the one mechanism every time-driven action rests on. */

export type { Timer, TimerKind } from './timer';

export interface TimerFilter {
  kind?: string | undefined;
  subject_type?: string | undefined;
  subject_id?: string | undefined;
}

/** `fired`: the timer was claimed and its firing is in the outbox; `gone`: another sweep (or a cancel or re-arm) got there first. */
export type ClaimResult = 'fired' | 'gone';

export interface TimerStore {
  /** Pending timers due at or before `now`, across tenants, soonest first per shard (the sweeper). */
  dueBy(now: string, limit: number): Promise<Timer[]>;
  /**
   * Claims a due timer: deletes it on the condition that it is still due at the same time, and
   * writes `firing` to the outbox in the same transaction. Of two sweeps, one claims it.
   */
  claim(timer: Timer, firing: OutboxEvent): Promise<ClaimResult>;
  list(tenantId: string, filter: TimerFilter, page: PageRequest): Promise<Page<Timer>>;
}

/**
 * `written`; `duplicate`: this occurrence was recorded already (a redelivered firing); `stale`:
 * the subject no longer is in the state the timer was armed for.
 */
export type OccurrenceResult = 'written' | 'duplicate' | 'stale';

export interface TaskDueStore {
  /**
   * The `task.overdue` occurrence: its audit event (under an id derived from the task and its
   * `due_at`, so an occurrence is written once) and the outbox event rules act on, on the
   * condition that the task is still open or in progress with that `due_at`.
   */
  recordOverdue(
    task: { tenant_id: string; id: string; due_at: string },
    audit: AuditEvent,
    event: OutboxEvent,
  ): Promise<OccurrenceResult>;
}

export interface DocumentDueStore {
  /**
   * The `document.overdue` occurrence: its audit event (under an id derived from the document and
   * its `due_on`) and the outbox event rules act on, on the condition that the document is still
   * an open invoice with that `due_on`.
   */
  recordOverdue(
    document: { tenant_id: string; id: string; due_on: string },
    audit: AuditEvent,
    event: OutboxEvent,
  ): Promise<OccurrenceResult>;
}

export interface RuleScheduleStore {
  /**
   * A scheduled rule's firing: its `next_run_at` moved from `due` to `next` (and its timer re-armed
   * there, none when null), its audit event and the outbox event the runner fires it on, on the
   * condition that the rule is still enabled and due at `due`: a stale or repeated firing writes
   * nothing.
   */
  recordRun(
    rule: { tenant_id: string; id: string; due: string; next: Timer | null },
    audit: AuditEvent,
    event: OutboxEvent,
  ): Promise<OccurrenceResult>;
}

export interface HubScheduleStore {
  /**
   * A connection's scheduled runs: the firing's audit event (under an id derived from the
   * connection and the timer's due time, so a firing writes once), each reconciliation run with its
   * own audit and outbox events, the diagnostics request, and the next `hub_schedule` timer, on the
   * condition that the connection is still active and unchanged since it was read (`changed`:
   * read it again).
   */
  recordRuns(
    connection: { tenant_id: string; id: string; updated_at: string; next: Timer | null },
    audits: AuditEvent[],
    outbox: OutboxEvent[],
    runs: ReconciliationRun[],
  ): Promise<OccurrenceResult | 'changed'>;
}

export interface RezoneStore {
  /**
   * A scheduled rule's next firing moved from `was` to `next` (its timer with it), on the
   * condition that the rule is still enabled and due at `was`; false when it moved on meanwhile.
   */
  moveRule(rule: { tenant_id: string; id: string; was: string }, next: Timer | null): Promise<boolean>;
  /** A timer re-armed at its new time, on the condition that it is still armed at `was`. */
  moveTimer(timer: Timer, was: string): Promise<boolean>;
}
