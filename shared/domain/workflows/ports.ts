import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { WorkflowRuleRead } from '#shared/api/schemas/responses';
import type { AuditEvent } from '#shared/domain/audit';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { PlannedAction } from './plan';

/** The ports of workflow rules (docs/api.md section 9.1) and the records they carry. */

export type WorkflowRule = z.output<typeof WorkflowRuleRead>;

export interface WorkflowRuleStore {
  create(rule: WorkflowRule, audit: AuditEvent): Promise<void>;
  get(tenantId: string, id: string): Promise<WorkflowRule | undefined>;
  list(tenantId: string, page: PageRequest): Promise<Page<WorkflowRule>>;
  /**
   * Writes `next` only if the stored rule is still at `expected.version` with `expected.next_run_at`
   * (a scheduled firing moves it): false otherwise. The rule's `rule_schedule` timer is re-armed
   * at `next.next_run_at`, or cancelled, in the same transaction.
   */
  update(
    next: WorkflowRule,
    expected: Pick<WorkflowRule, 'version' | 'next_run_at'>,
    audit: AuditEvent,
  ): Promise<boolean>;
  /** Deletes the rule, its audit event and its timer; false when there was no such rule. */
  remove(tenantId: string, id: string, audit: AuditEvent): Promise<boolean>;
  /** The tenant's enabled rules for one event type (one Query), for the internal worker. */
  enabledFor(tenantId: string, eventType: string): Promise<WorkflowRule[]>;
}

/** What a workflow_action review item keeps so that a retry runs the same action again. */
export interface WorkflowJob {
  rule_id: string;
  rule_name: string;
  event_id: string;
  event_type: string;
  action_index: number;
  /** The action as planned when it failed, placeholders filled: a retry runs exactly this. */
  action: PlannedAction;
  /** The run it failed in (jobs kept before runs have none). */
  run_id?: string;
}

/**
 * What the review item of a failed run keeps: the run it is about. Its retry is a replay of the
 * run (docs/api.md, "Replay"), not of one action.
 */
export interface WorkflowRunJob {
  run_id: string;
  rule_id: string;
  rule_name: string;
}

/** The internal worker's records of rule firings and failed actions, and their review decisions. */
export interface WorkflowJobStore {
  /** A firing's audit event, under its derived id: false when it was already written (a redelivery). */
  recordFiring(audit: AuditEvent): Promise<boolean>;
  /**
   * A failed action's review item (kind `workflow_action`) with the job it keeps and its audit
   * event, in one transaction, under its derived id: false when it was already opened.
   */
  openReview(review: ReviewItem, job: WorkflowJob, audit: AuditEvent): Promise<boolean>;
  /**
   * The one review item of a run that ended failed, with its audit event, in one transaction:
   * written when the run has none or its item was decided (a replay that failed again reopens
   * it), false when the run's item is still open (it stays as it is: one open item per run).
   */
  openRunReview(review: ReviewItem, job: WorkflowRunJob, audit: AuditEvent): Promise<boolean>;
  /**
   * A workflow_action review item with its job (a run's, or an action's of an item opened before
   * items were per run); undefined for any other item.
   */
  getJob(
    tenantId: string,
    reviewItemId: string,
  ): Promise<{ review: ReviewItem; job: WorkflowJob | WorkflowRunJob } | undefined>;
  /**
   * A decision on a review item that is still open, with its audit event and, for a retry, the
   * outbox event that asks the worker to run the action again; false when it was no longer open.
   */
  decide(decided: ReviewItem, audit: AuditEvent, outbox: OutboxEvent | null): Promise<boolean>;
}
