import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import type { createStores } from '#functions/adapters/stores';
import { workflowRunDeps } from '#functions/workers/workflow-deps';
import type { TaskStore } from '#shared/domain/tasks/ports';
import { fireRules, type WorkflowRunDeps } from '#shared/domain/workflows/runner';
import { createRule } from '#shared/domain/workflows/use-cases';
import { derivedId, systemClock } from '#shared/kernel/ids';
import { freshDb } from '#tests/support/db';
import { drain, exceptionEvent, principal, tasksOfException } from '#tests/support/fixtures';

/**
 * The internal worker's rule firing against DynamoDB Local (docs/api.md section 9.1): what an
 * action's error does before the message's last attempt (the queue retries it) and on it (a
 * `workflow_action` review item for the run, once).
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const T = 'acme';
const manager = principal('manager-1', {}, true);
const MAX = 3;

beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

/** The exception's outbox event, as the exceptions store wrote it. */
const criticalException = () => exceptionEvent(stores.exceptions, manager, T);

/** A task store whose creates fail with a dependency error. */
const failingTasks = (tasks: TaskStore): TaskStore => ({
  ...tasks,
  create: async () => {
    throw Object.assign(new Error('Throughput exceeds the current capacity'), {
      name: 'ThrottlingException',
    });
  },
});

const deps = (override: Partial<WorkflowRunDeps> = {}): WorkflowRunDeps => ({
  ...workflowRunDeps(db),
  maxAttempts: MAX,
  ...override,
});
/** The review items of one run: a failed run's item has the run as its subject. */
const reviewItemsOf = async (runId: string) =>
  (
    await drain((cursor) =>
      notificationStore(db).listReviewItems(T, { kind: 'workflow_action' }, { limit: 50, cursor }),
    )
  ).filter((i) => i.subject_id === runId);
const tasksOf = (exceptionId: string) => tasksOfException(stores.tasks, T, exceptionId);

describe('fireRules', () => {
  it('an error before the last attempt propagates (the queue retries); on the last attempt it opens one review item', async () => {
    const rule = await createRule(
      { rules: stores.workflowRules, zones: stores.zones, clock: systemClock },
      manager,
      T,
      {
        name: 'Critical needs a manager',
        trigger: { event_type: 'exception.created' },
        conditions: [{ field: 'severity', op: 'eq', value: 'critical' }],
        actions: [{ type: 'create_task', title: 'Look at {{title}}', assignee_role: 'manager' }],
        enabled: true,
      },
    );
    const { event, id } = await criticalException();
    const failing = deps({ tasks: failingTasks(stores.tasks) });
    const runId = derivedId(event.occurred_at, rule.id, event.event_id, 'run');

    await expect(fireRules(failing, event, 1)).rejects.toThrow('capacity');
    await expect(fireRules(failing, event, MAX - 1)).rejects.toThrow('capacity');
    expect(await reviewItemsOf(runId)).toEqual([]);

    const [firing] = await fireRules(failing, event, MAX);
    expect(firing!.actions).toEqual([
      expect.objectContaining({ result: 'failed', reason: 'action_failed', error: expect.any(Error) }),
    ]);
    const [item, ...others] = await reviewItemsOf(runId);
    expect(others).toEqual([]);
    expect(item).toMatchObject({
      kind: 'workflow_action',
      reason: 'action_failed',
      status: 'open',
      subject_id: runId,
      notification_id: null,
      channel: null,
    });

    // The same message again (a redrive from the DLQ): the item is not opened twice, and once
    // the store works the action runs and creates its task, once.
    await fireRules(failing, event, MAX);
    expect(await reviewItemsOf(runId)).toHaveLength(1);
    await fireRules(deps(), event, 1);
    await fireRules(deps(), event, 1);
    expect(await tasksOf(id)).toHaveLength(1);
    const fired = (
      await drain((cursor) =>
        stores.audit.list(T, { entity_type: 'workflow_rule', entity_id: rule.id }, { limit: 50, cursor }),
      )
    ).filter((a) => a.event_type === 'workflow_rule.fired');
    // The first firing to finish is the one recorded: the failed attempt on the last receive.
    expect(fired).toHaveLength(1);
    expect(JSON.parse(fired[0]!.metadata_json!).actions[0].result).toBe('failed');
  });
});
