import { type Clock, derivedId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { OccurrenceResult, Timer } from '#shared/domain/timers/ports';

/**
 * A `rule_delay` timer's firing (docs/api.md, "Workflow runs"): the waiting run goes on, on the
 * internal queue as any job, where the workflow worker reads the run and its subject again. The
 * event's idempotency key is the timer's, so a redelivered firing queues it once.
 */
export const ruleDelayTimer = (
  run: { tenant_id: string; id: string; rule_id: string },
  due: string,
): Timer => ({
  id: `rule_delay:${run.id}`,
  tenant_id: run.tenant_id,
  kind: 'rule_delay',
  subject_type: 'workflow_run',
  subject_id: run.id,
  due_at: due,
  rule_id: run.rule_id,
});

export async function fireRuleDelay(
  /** `requeue` answers false when the event was written already (a redelivered firing). */
  deps: { clock: Clock; requeue: (event: OutboxEvent) => Promise<boolean> },
  timer: Timer,
): Promise<OccurrenceResult> {
  const written = await deps.requeue({
    event_id: derivedId(timer.due_at, 'rule_delay', timer.tenant_id, timer.subject_id, timer.due_at),
    kind: EVENT_KINDS.workflowRunResumed,
    tenant_id: timer.tenant_id,
    idempotency_key: `workflow-run-resumed:${timer.tenant_id}:${timer.subject_id}:${timer.due_at}`,
    occurred_at: deps.clock.now().toISOString(),
    payload: { run_id: timer.subject_id, due_at: timer.due_at },
  });
  return written ? 'written' : 'duplicate';
}
