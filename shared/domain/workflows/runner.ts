import { derivedId } from '#shared/kernel/ids';
import { auditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import { tryRule, type WorkflowEvent } from './plan';
import { attemptAction, type Firing, MAX_RUN_DEPTH, type WorkflowRunDeps } from './actions';
import { failedEvent, openRunReview, pass, runReviewId, startRun, stopLoop } from './run-pass';

export {
  type ActionOutcome,
  type FailureReason,
  type Firing,
  MAX_RUN_DEPTH,
  type WorkflowRunDeps,
} from './actions';
export { resumeRun } from './resume';

/**
 * The internal worker's use cases for workflow rules (docs/api.md section 9.1).
 *
 * Once per (rule, triggering event, action): every action writes its task or notification under
 * an id derived from that triple (`derivedId`) with a not-exists condition, so a redelivered or
 * redriven event finds what the first delivery created and creates nothing new. The firing's
 * `workflow_rule.fired` audit event and a failed action's review item have derived ids too.
 */

const eventOf = (event: OutboxEvent): WorkflowEvent => {
  const { event_type, entity_json } = event.payload;
  const entity: unknown = typeof entity_json === 'string' ? JSON.parse(entity_json) : undefined;
  if (typeof event_type !== 'string' || typeof entity !== 'object' || entity === null)
    throw new Error(`malformed workflow event ${event.event_id}`);
  return { event_type, entity: entity as Record<string, unknown> };
};

/**
 * Fire the tenant's enabled rules for one recorded change.
 * 1. Read the enabled rules for the event type (one Query) and try each on the event's entity.
 * 2. For each matching rule, run its actions in order, each under the id derived from
 *    (rule, event, action index): a redelivery finds them done and creates nothing.
 * 3. A refused action, or one that failed with an error on the message's last attempt, is a
 *    failed action of the run; an error before the last attempt is thrown, so the queue retries
 *    the message (the actions already done are found, not repeated). A run that ends failed opens
 *    one `workflow_action` review item (`openRunReview`), whose retry replays the run.
 * 4. Write the rule's `workflow_rule.fired` audit event (once, under its derived id).
 * Each matching rule's run is started (under an id derived from the rule and the event) before
 * its first action and saved with the outcomes after the last: a delivery that crashed between
 * the two leaves the run `running`, and the redelivery completes that run, not a second one.
 */
export async function fireRules(
  deps: WorkflowRunDeps,
  event: OutboxEvent,
  receiveCount: number,
): Promise<Firing[]> {
  const recorded = eventOf(event);
  const rules = await deps.rules.enabledFor(event.tenant_id, recorded.event_type);
  const firings: Firing[] = [];
  for (const rule of rules) {
    const tried = tryRule(rule, recorded, new Date(event.occurred_at));
    if (!tried.matched) continue;
    const started = await startRun(
      deps,
      event,
      recorded,
      rule,
      tried.actions.map((a) => a.type),
    );
    if (started.status === 'succeeded' || started.status === 'waiting') {
      // A redelivery of a firing that was completed (or is on its delay): nothing to do again.
      firings.push({ rule_id: rule.id, event_id: event.event_id, run_id: started.id, actions: [] });
      continue;
    }
    const done =
      started.depth >= MAX_RUN_DEPTH
        ? stopLoop(started, tried.actions, deps.clock.now().toISOString())
        : await pass(deps, started, {
            rule,
            entity: recorded,
            at: new Date(event.occurred_at),
            lastAttempt: receiveCount >= deps.maxAttempts,
          });
    // Before the run is saved ended: a crash between them redoes the pass, which finds the item open.
    const reviewItemId = await openRunReview(deps, done.run, rule);
    const outcomes = done.outcomes.map((o) =>
      o.result === 'failed' ? { ...o, review_item_id: runReviewId(done.run) } : o,
    );
    const fired = auditEvent(deps.clock, {
      tenant_id: event.tenant_id,
      event_type: 'workflow_rule.fired',
      actor_id: null,
      entity_type: 'workflow_rule',
      entity_id: rule.id,
      summary: `${rule.name} on ${recorded.event_type}`,
      metadata: {
        event_id: event.event_id,
        event_type: recorded.event_type,
        entity_id: recorded.entity.id ?? null,
        run_id: started.id,
        actions: outcomes.map(({ index, type, result, id }) => ({ index, type, result, id })),
      },
    });
    await deps.jobs.recordFiring({
      ...fired,
      id: derivedId(event.occurred_at, rule.id, event.event_id, 'fired'),
    });
    // After the actions and the audit: a run saved as ended says all of them were written.
    await deps.runs.save(done.run, done.timer, failedEvent(deps, done.run));
    firings.push({
      rule_id: rule.id,
      event_id: event.event_id,
      run_id: started.id,
      actions: outcomes,
      ...(reviewItemId ? { review_item_id: reviewItemId } : {}),
    });
  }
  return firings;
}

/**
 * Run a failed action once more, as a review decision asked (`workflow.action_retry_requested`)
 * on an item opened for one action before review items were per run (a run's item replays the
 * run instead; nothing asks this for it).
 * 1. Read the review item and the job it keeps (a missing one is nothing to do).
 * 2. Run the planned action under an id derived from the review item: a redelivered request
 *    finds what the first one created.
 * 3. If it fails again, a new review item opens for it (once), about the same job.
 */
export async function retryAction(
  deps: WorkflowRunDeps,
  event: OutboxEvent,
  receiveCount: number,
): Promise<Firing | undefined> {
  const found = await deps.jobs.getJob(event.tenant_id, String(event.payload.review_item_id ?? ''));
  if (!found || !('action' in found.job)) return undefined;
  const { review } = found;
  const job = found.job;
  const actionId = derivedId(event.occurred_at, review.id, 'retry');
  const outcome = await attemptAction(deps, {
    tenantId: event.tenant_id,
    rule: { id: job.rule_id, name: job.rule_name },
    job,
    subjectId: review.subject_id,
    actionId,
    reviewId: derivedId(event.occurred_at, actionId, 'review'),
    lastAttempt: receiveCount >= deps.maxAttempts,
  });
  return { rule_id: job.rule_id, event_id: job.event_id, actions: [outcome] };
}
