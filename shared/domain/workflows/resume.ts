import type { OutboxEvent } from '#shared/domain/outbox';
import type { WorkflowRuleStore } from './ports';
import type { WorkflowRun } from './runs';
import { failedEvent, openRunReview, pass, runReviewId } from './run-pass';
import type { Firing, WorkflowRunDeps } from './actions';

/**
 * A waiting run whose delay ended (`workflow.run_resumed`, from its `rule_delay` timer).
 * 1. Read the run; one that is no longer waiting (a redelivery after it went on) is nothing to do.
 * 2. Read the rule as it stands now (a deleted or disabled rule ends the run `failed`) and the
 *    run's subject as it is now: the remaining actions see that, not the triggering snapshot.
 * 3. Run the remaining actions (another delay waits again) and save the run; one that ends failed
 *    opens its review item, or reopens it (a replay that failed again), `openRunReview`.
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
    const ended: WorkflowRun = {
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
    };
    const reviewItemId = await openRunReview(deps, ended, rule);
    await deps.runs.save(ended);
    return {
      rule_id: run.rule_id,
      event_id: run.trigger.event_id,
      run_id: run.id,
      actions: [],
      ...(reviewItemId ? { review_item_id: reviewItemId } : {}),
    };
  }
  const done = await pass(deps, run, {
    rule,
    entity: { event_type: run.trigger.event_type ?? `schedule:${run.rule_id}`, entity },
    at: deps.clock.now(),
    lastAttempt: receiveCount >= deps.maxAttempts,
    resumed: replay === undefined,
    ...(replay === undefined ? {} : { attempt: `replay:${replay}` }),
  });
  // Before the run is saved ended: a redelivery after a crash between them finds the item open.
  const reviewItemId = await openRunReview(deps, done.run, rule);
  await deps.runs.save(done.run, done.timer, failedEvent(deps, done.run));
  return {
    rule_id: run.rule_id,
    event_id: run.trigger.event_id,
    run_id: run.id,
    actions: done.outcomes.map((o) =>
      o.result === 'failed' ? { ...o, review_item_id: runReviewId(done.run) } : o,
    ),
    ...(reviewItemId ? { review_item_id: reviewItemId } : {}),
  };
}
