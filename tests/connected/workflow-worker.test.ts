import type { SQSRecord } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import type { createStores } from '#functions/adapters/stores';
import { metricsFor } from '#functions/observability';
import { workflowRunDeps } from '#functions/workers/workflow-deps';
import { workflowHandlers } from '#functions/workers/workflows';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { TaskStore } from '#shared/domain/tasks/ports';
import type { WorkflowRule } from '#shared/domain/workflows/ports';
import { decideWorkflowAction } from '#shared/domain/workflows/review';
import { replayRun } from '#shared/domain/workflows/runs';
import { createException } from '#shared/domain/exceptions/use-cases';
import { openReviewItem } from '#shared/domain/review';
import { auditEvent } from '#shared/domain/audit';
import { pendingOlderThan } from '#functions/adapters/outbox';
import { workflowRunStore } from '#functions/adapters/workflow-run-store';
import type { WorkflowRunDeps } from '#shared/domain/workflows/runner';
import { createRule } from '#shared/domain/workflows/use-cases';
import { InvalidTransitionError } from '#shared/kernel/errors';
import { derivedId, newId, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { drain, principal, recorded } from '#tests/support/fixtures';
import { captureLogLines } from '#tests/support/logs';

/**
 * The internal worker's workflow kinds (functions/workers/workflows.ts) over DynamoDB Local: what
 * a rule's actions create (once, however often the event comes), what a refused or failing action
 * opens for an operator (a `workflow_action` review item with its audit event), what a review
 * decision on it runs again, and the metrics and log lines the alarms and operators read.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const MAX = 3;
const manager = principal('manager-1', {}, true);
const reviewer = principal('reviewer-1');

beforeAll(async () => {
  ({ db, stores } = await freshDb());
});
afterEach(() => {
  vi.restoreAllMocks();
});

const deps = (override: Partial<WorkflowRunDeps> = {}): WorkflowRunDeps => ({
  ...workflowRunDeps(db),
  maxAttempts: MAX,
  ...override,
});

/** A task store whose creates fail with a dependency error. */
const failingTasks = (tasks: TaskStore): TaskStore => ({
  ...tasks,
  create: async () => {
    throw Object.assign(new Error('Throughput exceeds the current capacity'), {
      name: 'ThrottlingException',
    });
  },
});

/** The SQS record the internal queue hands over, received `receiveCount` times (none: the attribute is absent). */
const sqsRecord = (receiveCount?: number): SQSRecord =>
  ({
    messageId: newId(),
    attributes: receiveCount === undefined ? {} : { ApproximateReceiveCount: String(receiveCount) },
  }) as unknown as SQSRecord;

/** Metrics (name, value) and log lines of what runs inside `fn`. */
const observed = async (fn: () => Promise<void>) => {
  const metrics = metricsFor('worker-internal');
  const added = vi.spyOn(metrics, 'addMetric');
  added.mockClear();
  const lines = captureLogLines();
  await fn();
  const out = { metrics: added.mock.calls.map(([name, , value]) => [name, value]), lines };
  vi.restoreAllMocks();
  return out;
};

const newTenant = () => `t-${newId().slice(-10)}`;
const rule = (tenantId: string, input: Partial<WorkflowRule> & Pick<WorkflowRule, 'actions'>) =>
  createRule({ rules: stores.workflowRules, zones: stores.zones, clock: systemClock }, manager, tenantId, {
    name: input.name ?? 'Critical exceptions',
    trigger: input.trigger ?? { event_type: 'exception.created' },
    conditions: input.conditions ?? [{ field: 'severity', op: 'eq', value: 'critical' }],
    actions: input.actions,
    enabled: true,
  });

const auditOf = (tenantId: string, entityType: string, entityId: string) =>
  drain((cursor) =>
    stores.audit.list(tenantId, { entity_type: entityType, entity_id: entityId }, { limit: 50, cursor }),
  );
const reviewItemsOf = async (tenantId: string) =>
  drain((cursor) =>
    notificationStore(db).listReviewItems(tenantId, { kind: 'workflow_action' }, { limit: 50, cursor }),
  );
const actionId = (event: OutboxEvent, ruleId: string, index: number) =>
  derivedId(event.occurred_at, ruleId, event.event_id, String(index));

describe('a recorded change fires the matching rules', () => {
  it('runs each action once under its derived id, as the rule; counts and logs the firing and audits it once', async () => {
    const T = newTenant();
    const fires = await rule(T, {
      name: 'Critical needs a manager',
      actions: [
        { type: 'create_task', title: 'Look at {{title}}', assignee_role: 'manager', due_in_hours: 4 },
        {
          type: 'notify',
          category: 'general',
          priority: 'normal',
          channel: 'telegram',
          recipient: '4242',
          body: 'Critical: {{title}}',
        },
        {
          type: 'notify',
          category: 'general',
          priority: 'normal',
          channel: 'email',
          recipient: 'ops@example.com',
          subject: 'Re: {{title}} {{long}}',
          body: 'See {{id}}',
        },
      ],
    });
    const low = await rule(T, {
      conditions: [{ field: 'severity', op: 'eq', value: 'low' }],
      actions: [{ type: 'create_task', title: 'Never' }],
    });
    const event = recorded('exception.created', {
      tenant_id: T,
      id: 'exc-1',
      severity: 'critical',
      title: 'Short payment',
      long: 'x'.repeat(300),
    } as never);
    const handlers = workflowHandlers(deps());
    const first = await observed(() => handlers[EVENT_KINDS.workflowEventRecorded]!(event, sqsRecord(1)));

    const ids = [0, 1, 2].map((i) => actionId(event, fires.id, i));
    const task = await stores.tasks.get(T, ids[0]!);
    expect(task).toMatchObject({
      title: 'Look at Short payment',
      assignee_role: 'manager',
      due_at: new Date(Date.parse(event.occurred_at) + 4 * 3_600_000).toISOString(),
      subject_type: 'exception',
      subject_id: 'exc-1',
    });
    const telegram = await notificationStore(db).get(T, ids[1]!);
    expect(telegram).toMatchObject({
      status: 'queued',
      channel: 'telegram',
      subject: null,
      body: 'Critical: Short payment',
      created_by: `workflow_rule:${fires.id}`,
    });
    expect(JSON.parse(telegram!.metadata_json)).toEqual({ workflow_rule_id: fires.id });
    const email = await notificationStore(db).get(T, ids[2]!);
    expect(email?.subject).toBe(`Re: Short payment ${'x'.repeat(300)}`.slice(0, 255));
    expect((await auditOf(T, 'notification', ids[1]!)).map((a) => a.actor_id)).toEqual([
      `workflow_rule:${fires.id}`,
    ]);

    expect(first.metrics).toEqual([[METRICS.workflowRuleFired, 1]]);
    expect(first.lines).toEqual([
      {
        level: 'info',
        message: 'workflow rule fired',
        event: LOG_EVENTS.workflowRuleFired,
        tenant_id: T,
        rule_id: fires.id,
        event_id: event.event_id,
        event_type: 'exception.created',
        actions: ['created', 'created', 'created'],
      },
    ]);
    const fired = await auditOf(T, 'workflow_rule', fires.id);
    const firedEvents = fired.filter((a) => a.event_type === 'workflow_rule.fired');
    expect(firedEvents).toHaveLength(1);
    expect(firedEvents[0]).toMatchObject({
      actor_id: null,
      summary: 'Critical needs a manager on exception.created',
    });
    expect(JSON.parse(firedEvents[0]!.metadata_json!)).toEqual({
      event_id: event.event_id,
      event_type: 'exception.created',
      entity_id: 'exc-1',
      run_id: derivedId(event.occurred_at, fires.id, event.event_id, 'run'),
      actions: [
        { index: 0, type: 'create_task', result: 'created', id: ids[0] },
        { index: 1, type: 'notify', result: 'created', id: ids[1] },
        { index: 2, type: 'notify', result: 'created', id: ids[2] },
      ],
    });
    expect((await auditOf(T, 'workflow_rule', low.id)).map((a) => a.event_type)).toEqual([
      'workflow_rule.created',
    ]);

    // The same message again (SQS delivers at least once): its run ended succeeded, so nothing
    // runs again and nothing is created again.
    const again = await observed(() => handlers[EVENT_KINDS.workflowEventRecorded]!(event, sqsRecord(2)));
    expect(again.lines[0]).toMatchObject({ actions: [] });
    expect(
      await drain((cursor) =>
        stores.tasks.list(T, { subject_type: 'exception', subject_id: 'exc-1' }, { limit: 50, cursor }),
      ),
    ).toHaveLength(1);
    expect(
      (await auditOf(T, 'workflow_rule', fires.id)).filter((a) => a.event_type === 'workflow_rule.fired'),
    ).toHaveLength(1);
  });

  it('an event whose entity has no id: the task is about nothing, the firing audit names no entity', async () => {
    const T = newTenant();
    const fires = await rule(T, {
      conditions: [],
      actions: [{ type: 'create_task', title: 'Check the import' }],
    });
    const event: OutboxEvent = {
      ...recorded('exception.created', { tenant_id: T, id: 'x' }),
      payload: { event_type: 'exception.created', entity_json: JSON.stringify({ title: 'no id' }) },
    };
    await observed(() => workflowHandlers(deps())[EVENT_KINDS.workflowEventRecorded]!(event, sqsRecord(1)));
    expect(await stores.tasks.get(T, actionId(event, fires.id, 0))).toMatchObject({
      subject_type: null,
      subject_id: null,
    });
    const [firedEvent] = (await auditOf(T, 'workflow_rule', fires.id)).filter(
      (a) => a.event_type === 'workflow_rule.fired',
    );
    expect(JSON.parse(firedEvent!.metadata_json!).entity_id).toBeNull();
  });

  it('a malformed event is an error (the queue retries it, then the DLQ), never a silent no-op', async () => {
    const T = newTenant();
    await rule(T, { conditions: [], actions: [{ type: 'create_task', title: 'Check' }] });
    const base = recorded('exception.created', { tenant_id: T, id: 'e1' });
    const handle = workflowHandlers(deps())[EVENT_KINDS.workflowEventRecorded]!;
    for (const payload of [
      { event_type: 'exception.created' },
      { event_type: 'exception.created', entity_json: 'null' },
      { event_type: 'exception.created', entity_json: '"text"' },
      { entity_json: JSON.stringify({ id: 'e1' }) },
      { event_type: 'exception.created', entity_json: { id: 'e1' } },
    ])
      await expect(handle({ ...base, payload }, sqsRecord(1))).rejects.toThrow(
        `malformed workflow event ${base.event_id}`,
      );
  });
});

describe('a run whose actions cannot run opens one review item for an operator', () => {
  it('refused or empty once filled: each action failed in the run, ONE review item for the run, audited and counted once; not opened again on a redelivery', async () => {
    const T = newTenant();
    const fires = await rule(T, {
      name: 'Tell ops',
      conditions: [],
      actions: [
        {
          type: 'notify',
          category: 'general',
          priority: 'normal',
          channel: 'email',
          recipient: '{{blank}}',
          subject: 'S',
          body: 'hello',
        },
        {
          type: 'notify',
          category: 'general',
          priority: 'normal',
          channel: 'email',
          recipient: 'ops@example.com',
          subject: 'S',
          body: '{{blank}}',
        },
        {
          type: 'notify',
          category: 'general',
          priority: 'normal',
          channel: 'email',
          recipient: 'ops@example.com',
          subject: 'Key',
          body: 'the key is AKIAABCDEFGHIJKLMNOP',
        },
        { type: 'create_task', title: '{{short}}' },
        { type: 'create_task', title: '{{two}}' },
      ],
    });
    const event = recorded('exception.created', {
      tenant_id: T,
      id: 'exc-2',
      blank: '  ',
      short: ' x ',
      two: 'ab',
    } as never);
    const handle = workflowHandlers(deps())[EVENT_KINDS.workflowEventRecorded]!;
    const seen = await observed(() => handle(event, sqsRecord(1)));

    const ids = [0, 1, 2, 3, 4].map((i) => actionId(event, fires.id, i));
    const runId = derivedId(event.occurred_at, fires.id, event.event_id, 'run');
    const reviewId = derivedId(event.occurred_at, runId, 'review');
    const expected: [number, string][] = [
      [0, 'invalid_action'],
      [1, 'invalid_action'],
      [2, 'policy_rejected'],
      [3, 'invalid_action'],
    ];
    // One item for the run: its subject the run, its reason and detail the first failed action's.
    expect(await reviewItemsOf(T)).toEqual([
      expect.objectContaining({
        id: reviewId,
        kind: 'workflow_action',
        status: 'open',
        reason: 'invalid_action',
        channel: 'email',
        notification_id: null,
        subject_id: runId,
        detail:
          'rule "Tell ops", action 1 (notify): the recipient or the body is empty once filled (and 3 more failed)',
      }),
    ]);
    expect(await workflowRunStore(db).get(T, runId)).toMatchObject({
      status: 'failed',
      actions: [
        { status: 'failed', error: { code: 'invalid_action' } },
        { status: 'failed', error: { code: 'invalid_action' } },
        {
          status: 'failed',
          error: {
            code: 'policy_rejected',
            message: `the notification was refused (secret_like_content); its blocked draft is ${ids[2]}`,
          },
        },
        {
          status: 'failed',
          error: { code: 'invalid_action', message: 'the task title is " x " once filled' },
        },
        { status: 'done' },
      ],
    });
    expect(await stores.tasks.get(T, ids[4]!)).toMatchObject({ title: 'ab' });
    expect((await notificationStore(db).get(T, ids[2]!))?.status).toBe('blocked');

    const failedAudit = (await auditOf(T, 'workflow_rule', fires.id)).filter(
      (a) => a.event_type === 'workflow_rule.action_failed',
    );
    expect(failedAudit.map((a) => [JSON.parse(a.metadata_json!), a.summary])).toEqual([
      [
        {
          event_id: event.event_id,
          run_id: runId,
          replay: 0,
          action_index: 0,
          reason: 'invalid_action',
          review_item_id: reviewId,
        },
        'rule "Tell ops", action 1 (notify): the recipient or the body is empty once filled (and 3 more failed)',
      ],
    ]);

    expect(seen.metrics).toEqual([
      [METRICS.workflowRuleFired, 1],
      [METRICS.reviewItemOpened, 1],
      ...expected.map(() => [METRICS.workflowActionFailed, 1]),
    ]);
    const warned = seen.lines.filter((l) => l.event === LOG_EVENTS.workflowActionFailed);
    expect(warned).toEqual(
      expected.map(([index, reason]) => ({
        level: 'warn',
        message: 'workflow rule action failed',
        event: LOG_EVENTS.workflowActionFailed,
        tenant_id: T,
        rule_id: fires.id,
        event_id: event.event_id,
        action_index: index,
        reason,
        review_item_id: reviewId,
      })),
    );

    // A redelivery: the blocked draft is found and refused again under its first reasons; each
    // run's review item stays the one already opened (not counted again). The action its run
    // shows done is not run again.
    const again = await observed(() => handle(event, sqsRecord(2)));
    expect(again.metrics).not.toContainEqual([METRICS.reviewItemOpened, 1]);
    expect(again.lines.find((l) => l.event === LOG_EVENTS.workflowRuleFired)).toMatchObject({
      actions: ['failed', 'failed', 'failed', 'failed'],
    });
    expect(again.lines.find((l) => l.action_index === 2)).toMatchObject({ reason: 'policy_rejected' });
    expect(await reviewItemsOf(T)).toHaveLength(1);
  });

  it('an error before the last receive propagates for the queue to retry; on the last it is the run review item, counted as an error and logged with it', async () => {
    const T = newTenant();
    const fires = await rule(T, {
      conditions: [],
      actions: [{ type: 'create_task', title: 'Look at {{id}}' }],
    });
    const event = recorded('exception.created', { tenant_id: T, id: 'exc-3' });
    const handle = workflowHandlers(deps({ tasks: failingTasks(stores.tasks) }))[
      EVENT_KINDS.workflowEventRecorded
    ]!;
    await expect(handle(event, sqsRecord())).rejects.toThrow('capacity');
    await expect(handle(event, sqsRecord(MAX - 1))).rejects.toThrow('capacity');
    expect(await reviewItemsOf(T)).toEqual([]);

    const last = await observed(() => handle(event, sqsRecord(MAX)));
    const runId = derivedId(event.occurred_at, fires.id, event.event_id, 'run');
    const reviewId = derivedId(event.occurred_at, runId, 'review');
    expect(last.metrics).toEqual([
      [METRICS.workflowRuleFired, 1],
      [METRICS.reviewItemOpened, 1],
      [METRICS.workflowActionFailed, 1],
      [METRICS.workflowActionErrored, 1],
    ]);
    expect(last.lines.find((l) => l.event === LOG_EVENTS.workflowActionFailed)).toMatchObject({
      reason: 'action_failed',
      review_item_id: reviewId,
      error: expect.objectContaining({ name: 'ThrottlingException' }),
    });
    expect(await reviewItemsOf(T)).toEqual([
      expect.objectContaining({
        id: reviewId,
        subject_id: runId,
        reason: 'action_failed',
        detail:
          'rule "Critical exceptions", action 1 (create_task): the action failed with an error on every attempt',
      }),
    ]);
  });
});

describe('a review decision on the workflow_action item of a failed run', () => {
  const reviewDeps = () => ({ ...workflowRunDeps(db), clock: systemClock });
  const resumedOf = async (runId: string) => {
    const found: OutboxEvent[] = [];
    for await (const e of pendingOlderThan(db, '9999'))
      if (e.kind === EVENT_KINDS.workflowRunResumed && e.payload.run_id === runId) found.push(e);
    return found;
  };
  const tasksOfRun = (T: string, subjectId: string) =>
    drain((cursor) =>
      stores.tasks.list(T, { subject_type: 'exception', subject_id: subjectId }, { limit: 50, cursor }),
    );
  /** Creates fail for the second task only: the first action is done, the second failed. */
  const secondFails = (tasks: TaskStore): TaskStore => ({
    ...tasks,
    create: async (...args: Parameters<TaskStore['create']>) => {
      if (args[0].title.startsWith('Second')) throw new Error('Throughput exceeds the current capacity');
      return tasks.create(...args);
    },
  });

  /** A rule of two tasks whose second failed on the message's last receive: its run and open item. */
  const failedRun = async () => {
    const T = newTenant();
    const fires = await rule(T, {
      conditions: [],
      actions: [
        { type: 'create_task', title: 'First {{id}}' },
        { type: 'create_task', title: 'Second {{id}}' },
      ],
    });
    // A stored exception: a replay reads its subject as it is now.
    const exc = await createException({ exceptions: stores.exceptions, clock: systemClock }, manager, T, {
      exception_type: 'payment.amount_mismatch',
      subject_type: 'invoice',
      subject_id: 'INV-1',
      title: 'Short',
      summary: 'Short by 40.00',
      severity: 'critical',
    });
    const event = recorded('exception.created', exc);
    await observed(() =>
      workflowHandlers(deps({ tasks: secondFails(stores.tasks) }))[EVENT_KINDS.workflowEventRecorded]!(
        event,
        sqsRecord(MAX),
      ),
    );
    const runId = derivedId(event.occurred_at, fires.id, event.event_id, 'run');
    const items = await reviewItemsOf(T);
    return { T, fires, event, runId, items, item: items[0]!, excId: exc.id };
  };

  it('a run fails -> exactly one review item -> retry replays the run: the failed action runs once more, the done one does not', async () => {
    const { T, runId, items, item, excId } = await failedRun();
    expect(items).toEqual([
      expect.objectContaining({ subject_id: runId, status: 'open', reason: 'action_failed' }),
    ]);
    expect((await tasksOfRun(T, excId)).map((t) => t.title)).toEqual([`First ${excId}`]);

    // Five racing decisions: one wins, the others are 409; one replay, audited as one.
    const tries = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        decideWorkflowAction(reviewDeps(), reviewer, item, { action: 'retry', note: 'capacity is back' }),
      ),
    );
    expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(1);
    for (const t of tries.filter((x) => x.status === 'rejected'))
      expect((t as PromiseRejectedResult).reason).toBeInstanceOf(InvalidTransitionError);
    expect((await reviewItemsOf(T))[0]).toMatchObject({
      status: 'retried',
      decision: 'retry',
      decided_by: reviewer.user_id,
      note: 'capacity is back',
    });
    expect((await auditOf(T, 'review_item', item.id)).map((a) => [a.event_type, a.summary])).toEqual([
      ['review_item.decided', `retry workflow run ${runId}`],
    ]);
    const replayed = await auditOf(T, 'workflow_run', runId);
    expect(replayed.map((a) => [a.event_type, a.actor_id])).toEqual([
      ['workflow_run.replayed', reviewer.user_id],
    ]);
    expect(JSON.parse(replayed[0]!.metadata_json!)).toMatchObject({ replay: 1, review_item_id: item.id });
    expect(await workflowRunStore(db).get(T, runId)).toMatchObject({
      status: 'running',
      replays: [{ actor_id: reviewer.user_id }],
    });

    // The replay path's own event, delivered twice: the second finds the replay done.
    const resumed = await resumedOf(runId);
    expect(resumed).toHaveLength(1);
    const handle = workflowHandlers(deps())[EVENT_KINDS.workflowRunResumed]!;
    await handle(resumed[0]!, sqsRecord(1));
    await handle(resumed[0]!, sqsRecord(2));
    expect((await tasksOfRun(T, excId)).map((t) => t.title).sort()).toEqual([
      `First ${excId}`,
      `Second ${excId}`,
    ]);
    expect(await workflowRunStore(db).get(T, runId)).toMatchObject({
      status: 'succeeded',
      actions: [{ status: 'done' }, { status: 'done' }],
    });
    expect(await reviewItemsOf(T)).toHaveLength(1);
  });

  it('a replay that fails again reopens the same item (never a second one), whether the review or the run started it', async () => {
    const { T, fires, runId, item, excId } = await failedRun();
    await decideWorkflowAction(reviewDeps(), reviewer, item, { action: 'retry' });
    const handle = workflowHandlers(deps({ tasks: secondFails(stores.tasks) }))[
      EVENT_KINDS.workflowRunResumed
    ]!;
    const [first] = await resumedOf(runId);
    await expect(handle(first!, sqsRecord(MAX - 1))).rejects.toThrow('capacity');
    const seen = await observed(() => handle(first!, sqsRecord(MAX)));
    expect(seen.metrics).toEqual([
      [METRICS.reviewItemOpened, 1],
      [METRICS.workflowActionFailed, 1],
      [METRICS.workflowActionErrored, 1],
    ]);
    expect(await reviewItemsOf(T)).toEqual([
      expect.objectContaining({
        id: item.id,
        status: 'open',
        decision: null,
        decided_by: null,
        reason: 'action_failed',
        subject_id: runId,
      }),
    ]);
    expect(seen.lines[0]).toMatchObject({ review_item_id: item.id, action_index: 1 });

    // A replay from the run decides the open item (retry); failing again reopens it: still one item.
    await replayRun(reviewDeps(), manager, T, runId);
    expect(await reviewItemsOf(T)).toEqual([
      expect.objectContaining({ id: item.id, status: 'retried', decided_by: manager.user_id }),
    ]);
    const second = (await resumedOf(runId)).find((e) => e.payload.replay === '2')!;
    const again = await observed(() => handle(second, sqsRecord(MAX)));
    expect(again.metrics).toContainEqual([METRICS.reviewItemOpened, 1]);
    expect(await reviewItemsOf(T)).toEqual([expect.objectContaining({ id: item.id, status: 'open' })]);
    // The same ending delivered again finds the item open and writes nothing.
    const redelivered = await observed(() => handle(second, sqsRecord(MAX)));
    expect(redelivered.metrics).not.toContainEqual([METRICS.reviewItemOpened, 1]);
    expect((await tasksOfRun(T, excId)).map((t) => t.title)).toEqual([`First ${excId}`]);
    const failedAudit = (await auditOf(T, 'workflow_rule', fires.id)).filter(
      (a) => a.event_type === 'workflow_rule.action_failed',
    );
    // Opened by the first ending, reopened by replay 1 and by replay 2.
    expect(failedAudit.map((a) => JSON.parse(a.metadata_json!).replay).sort()).toEqual([0, 1, 2]);
  });

  it('once the run was replayed from its page, a decision on the item as it was read is 409 and replays nothing', async () => {
    const { T, runId, item } = await failedRun();
    await replayRun(reviewDeps(), manager, T, runId);
    for (const action of ['retry', 'discard'] as const)
      await expect(decideWorkflowAction(reviewDeps(), reviewer, item, { action })).rejects.toBeInstanceOf(
        InvalidTransitionError,
      );
    expect((await reviewItemsOf(T))[0]).toMatchObject({ status: 'retried', note: 'replayed from the run' });
    expect((await workflowRunStore(db).get(T, runId))!.replays).toHaveLength(1);
    expect(await resumedOf(runId)).toHaveLength(1);
  });

  it('discard closes an open item and replays nothing', async () => {
    const { T, runId, item } = await failedRun();
    const decided: ReviewItem = await decideWorkflowAction(reviewDeps(), reviewer, item, {
      action: 'discard',
    });
    expect(decided).toMatchObject({ status: 'discarded', decision: 'discard', note: null });
    expect((await workflowRunStore(db).get(T, runId))!.replays).toHaveLength(0);
    expect(await resumedOf(runId)).toHaveLength(0);
  });
});

describe('a decision on a workflow_action item opened for one action (before items were per run)', () => {
  it('retry asks the worker to run that action once more, once; a request for no such item does nothing', async () => {
    const T = newTenant();
    const fires = await rule(T, {
      conditions: [],
      actions: [{ type: 'create_task', title: 'Look at {{id}}' }],
    });
    const event = recorded('exception.created', { tenant_id: T, id: 'exc-5' });
    const jobs = workflowRunDeps(db).jobs;
    const job = {
      rule_id: fires.id,
      rule_name: fires.name,
      event_id: event.event_id,
      event_type: 'exception.created',
      action_index: 0,
      action: {
        type: 'create_task' as const,
        title: 'Look at exc-5',
        description: null,
        assignee_user_id: null,
        assignee_role: null,
        due_at: null,
        priority: 'normal' as const,
        subject_type: 'exception',
        subject_id: 'exc-5',
        missing_fields: [],
      },
    };
    const item = openReviewItem(
      {
        id: newId(),
        tenant_id: T,
        kind: 'workflow_action',
        subject_id: `${fires.id}:${event.event_id}:0`,
        notification_id: null,
        channel: null,
        reason: 'action_failed',
        detail: 'rule "Critical exceptions", action 1 (create_task): failed',
      },
      systemClock.now().toISOString(),
    );
    await jobs.openReview(item, job as never, auditEventOf(T, fires.id));
    await decideWorkflowAction(reviewDeps(), reviewer, item, { action: 'retry' });
    const [rerun] = (await pending()).filter(
      (e) => e.kind === EVENT_KINDS.workflowActionRetryRequested && e.payload.review_item_id === item.id,
    );
    expect(rerun).toMatchObject({ idempotency_key: `workflow-retry:${T}:${item.id}` });
    const handle = workflowHandlers(deps())[EVENT_KINDS.workflowActionRetryRequested]!;
    await handle(rerun!, sqsRecord(1));
    await handle(rerun!, sqsRecord(2));
    const tasks = await drain((cursor) =>
      stores.tasks.list(T, { subject_type: 'exception', subject_id: 'exc-5' }, { limit: 50, cursor }),
    );
    expect(tasks.map((t) => [t.id, t.title])).toEqual([
      [derivedId(rerun!.occurred_at, item.id, 'retry'), 'Look at exc-5'],
    ]);
    const nothing = { ...rerun!, payload: { review_item_id: newId() } };
    expect(await observed(() => handle(nothing, sqsRecord(MAX)))).toEqual({ metrics: [], lines: [] });
  });

  const reviewDeps = () => ({ ...workflowRunDeps(db), clock: systemClock });
  const pending = async () => {
    const found: OutboxEvent[] = [];
    for await (const e of pendingOlderThan(db, '9999')) found.push(e);
    return found;
  };
  const auditEventOf = (T: string, ruleId: string) =>
    auditEvent(systemClock, {
      tenant_id: T,
      event_type: 'workflow_rule.action_failed',
      actor_id: null,
      entity_type: 'workflow_rule',
      entity_id: ruleId,
      summary: 'failed',
    });
});
