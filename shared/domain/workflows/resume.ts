import type { OutboxEvent } from '#shared/domain/outbox';
import type { WorkflowRuleStore } from './ports';
import { failedEvent, pass } from './run-pass';
import type { Firing, WorkflowRunDeps } from './actions';

/**
 * A waiting run whose delay ended (`workflow.run_resumed`, from its `rule_delay` timer).
 * 1. Read the run; one that is no longer waiting (a redelivery after it went on) is nothing to do.
 * 2. Read the rule as it stands now (a deleted or disabled rule ends the run `failed`) and the
 *    run's subject as it is now: the remaining actions see that, not the triggering snapshot.
 * 3. Run the remaining actions (another delay waits again) and save the run.
 */
export async function resumeRun(
  deps: WorkflowRunDeps & { rules: Pick<WorkflowRuleStore, 'get'> },
  event: OutboxEvent,
  receiveCount: number,
): Promise<Firing | undefined> {
  const run = await deps.runs.get(event.tenant_id, String(event.payload.run_id ?? ''));
  const replay = event.payload.replay === undefined ? undefined : Number(event.payload.replay);
  // A delay's end finds the run waiting; a replay finds it running with that replay its last.
  if (!run) return undefined;
  if (
    replay === undefined
      ? run.status !== 'waiting'
      : run.status !== 'running' || run.replays.length !== replay
  )
    return undefined;
  const rule = await deps.rules.get(run.tenant_id, run.rule_id);
  const entity =
    run.subject_type && run.subject_id
      ? await deps.subjects.read(run.subject_type, run.tenant_id, run.subject_id)
      : { rule_id: run.rule_id, scheduled_for: run.trigger.scheduled_for ?? null };
  if (!rule || (!rule.enabled && replay === undefined) || !entity) {
    const at = deps.clock.now().toISOString();
    const why = !rule
      ? 'the rule was deleted'
      : !rule.enabled
        ? 'the rule was disabled'
        : 'the subject is gone';
    await deps.runs.save({
      ...run,
      status: 'failed',
      finished_at: at,
      actions: run.actions.map((a) =>
        a.status === 'waiting'
          ? {
              ...a,
              status: 'failed',
              error: { code: 'invalid_action', message: `${why} while it waited` },
              at,
            }
          : a.status === 'done'
            ? a
            : { ...a, status: 'skipped' },
      ),
    });
    return { rule_id: run.rule_id, event_id: run.trigger.event_id, run_id: run.id, actions: [] };
  }
  const done = await pass(deps, run, {
    rule,
    entity: { event_type: run.trigger.event_type ?? `schedule:${run.rule_id}`, entity },
    at: deps.clock.now(),
    lastAttempt: receiveCount >= deps.maxAttempts,
    resumed: replay === undefined,
    ...(replay === undefined ? {} : { attempt: `replay:${replay}` }),
  });
  await deps.runs.save(done.run, done.timer, failedEvent(deps, done.run));
  return { rule_id: run.rule_id, event_id: run.trigger.event_id, run_id: run.id, actions: done.outcomes };
}
