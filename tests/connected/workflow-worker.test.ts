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
import type { WorkflowJobStore, WorkflowRule } from '#shared/domain/workflows/ports';
import { decideWorkflowAction } from '#shared/domain/workflows/review';
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

describe('an action that cannot run opens a review item for an operator', () => {
  it('refused or empty once filled: one review item each, audited and counted; not opened again on a redelivery', async () => {
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
    const reviewIds = ids.map((id) => derivedId(event.occurred_at, id, 'review'));
    const items = new Map((await reviewItemsOf(T)).map((i) => [i.id, i]));
    expect(items.size).toBe(4);
    const expected: [number, string, string, 'email' | null][] = [
      [0, 'invalid_action', 'notify): the recipient or the body is empty once filled', 'email'],
      [1, 'invalid_action', 'notify): the recipient or the body is empty once filled', 'email'],
      [
        2,
        'policy_rejected',
        `notify): the notification was refused (secret_like_content); its blocked draft is ${ids[2]}`,
        'email',
      ],
      [3, 'invalid_action', 'create_task): the task title is " x " once filled', null],
    ];
    for (const [index, reason, detail, channel] of expected)
      expect(items.get(reviewIds[index]!)).toMatchObject({
        kind: 'workflow_action',
        status: 'open',
        reason,
        channel,
        notification_id: null,
        subject_id: `${fires.id}:${event.event_id}:${index}`,
        detail: `rule "Tell ops", action ${index + 1} (${detail}`,
      });
    expect(await stores.tasks.get(T, ids[4]!)).toMatchObject({ title: 'ab' });
    expect((await notificationStore(db).get(T, ids[2]!))?.status).toBe('blocked');

    const failedAudit = (await auditOf(T, 'workflow_rule', fires.id)).filter(
      (a) => a.event_type === 'workflow_rule.action_failed',
    );
    expect(
      failedAudit.map((a) => JSON.parse(a.metadata_json!)).sort((a, b) => a.action_index - b.action_index),
    ).toEqual(
      expected.map(([index, reason]) => ({
        event_id: event.event_id,
        action_index: index,
        reason,
        review_item_id: reviewIds[index],
      })),
    );
    expect(failedAudit.map((a) => a.summary).sort()).toEqual(
      expected.map(([index]) => items.get(reviewIds[index]!)!.detail).sort(),
    );

    expect(seen.metrics).toEqual([
      [METRICS.workflowRuleFired, 1],
      ...expected.flatMap(() => [
        [METRICS.workflowActionFailed, 1],
        [METRICS.reviewItemOpened, 1],
      ]),
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
        review_item_id: reviewIds[index],
      })),
    );

    // A redelivery: the blocked draft is found and refused again under its first reasons; each
    // review item stays the one already opened. The action its run shows done is not run again.
    const again = await observed(() => handle(event, sqsRecord(2)));
    expect(again.lines.find((l) => l.event === LOG_EVENTS.workflowRuleFired)).toMatchObject({
      actions: ['failed', 'failed', 'failed', 'failed'],
    });
    expect(again.lines.find((l) => l.action_index === 2)).toMatchObject({ reason: 'policy_rejected' });
    expect(await reviewItemsOf(T)).toHaveLength(4);
  });

  it('an error before the last receive propagates for the queue to retry; on the last it is a review item, counted as an error and logged with it', async () => {
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
    const reviewId = derivedId(event.occurred_at, actionId(event, fires.id, 0), 'review');
    expect(last.metrics).toEqual([
      [METRICS.workflowRuleFired, 1],
      [METRICS.workflowActionFailed, 1],
      [METRICS.reviewItemOpened, 1],
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
        reason: 'action_failed',
        detail:
          'rule "Critical exceptions", action 1 (create_task): the action failed with an error on every attempt',
      }),
    ]);
  });
});

describe('a review decision on a workflow_action item', () => {
  /** A job store that keeps the outbox event a decision writes, and writes it to the table as well. */
  const keeping = () => {
    const real = workflowJobStore();
    const written: (OutboxEvent | null)[] = [];
    const jobs: WorkflowJobStore = {
      ...real,
      decide: async (decided, audit, outbox) => {
        written.push(outbox);
        return real.decide(decided, audit, outbox);
      },
    };
    return { jobs, written };
  };
  const workflowJobStore = () => workflowRunDeps(db).jobs;

  /** A rule whose one task action failed on the message's last receive: its open review item. */
  const failedAction = async () => {
    const T = newTenant();
    const fires = await rule(T, {
      conditions: [],
      actions: [{ type: 'create_task', title: 'Look at {{id}}' }],
    });
    const event = recorded('exception.created', { tenant_id: T, id: 'exc-4' });
    await observed(() =>
      workflowHandlers(deps({ tasks: failingTasks(stores.tasks) }))[EVENT_KINDS.workflowEventRecorded]!(
        event,
        sqsRecord(MAX),
      ),
    );
    const [item] = await reviewItemsOf(T);
    return { T, fires, event, item: item! };
  };

  it('retry: decided with its audit event and an outbox event; the worker runs the action once more, once', async () => {
    const { T, item } = await failedAction();
    const { jobs, written } = keeping();
    const decided = await decideWorkflowAction({ jobs, clock: systemClock }, reviewer, item, {
      action: 'retry',
      note: 'capacity is back',
    });
    expect(decided).toMatchObject({ status: 'retried', decision: 'retry', decided_by: reviewer.user_id });
    const [rerun] = written;
    expect(rerun).toMatchObject({
      kind: EVENT_KINDS.workflowActionRetryRequested,
      tenant_id: T,
      idempotency_key: `workflow-retry:${T}:${item.id}`,
      payload: { review_item_id: item.id },
    });
    expect((await auditOf(T, 'review_item', item.id)).map((a) => [a.event_type, a.summary])).toEqual([
      ['review_item.decided', `retry workflow action ${item.subject_id}`],
    ]);

    // The decision cannot be taken twice.
    await expect(
      decideWorkflowAction({ jobs, clock: systemClock }, reviewer, item, { action: 'discard' }),
    ).rejects.toBeInstanceOf(InvalidTransitionError);

    const handle = workflowHandlers(deps())[EVENT_KINDS.workflowActionRetryRequested]!;
    const seen = await observed(() => handle(rerun!, sqsRecord(1)));
    expect(seen.metrics).toEqual([]);
    // Under an id derived from the review item, so a redelivered request finds it.
    const tasks = await drain((cursor) =>
      stores.tasks.list(T, { subject_type: 'exception', subject_id: 'exc-4' }, { limit: 50, cursor }),
    );
    expect(tasks.map((t) => [t.id, t.title])).toEqual([
      [derivedId(rerun!.occurred_at, item.id, 'retry'), 'Look at exc-4'],
    ]);
    await handle(rerun!, sqsRecord(2));
    expect(
      await drain((cursor) =>
        stores.tasks.list(T, { subject_type: 'exception', subject_id: 'exc-4' }, { limit: 50, cursor }),
      ),
    ).toHaveLength(1);
  });

  it('a retry that fails again: retried by the queue, then on the last receive a new review item about the same action', async () => {
    const { T, item } = await failedAction();
    const { jobs, written } = keeping();
    await decideWorkflowAction({ jobs, clock: systemClock }, reviewer, item, { action: 'retry' });
    const handle = workflowHandlers(deps({ tasks: failingTasks(stores.tasks) }))[
      EVENT_KINDS.workflowActionRetryRequested
    ]!;
    await expect(handle(written[0]!, sqsRecord(MAX - 1))).rejects.toThrow('capacity');
    const seen = await observed(() => handle(written[0]!, sqsRecord(MAX)));
    expect(seen.metrics).toEqual([
      [METRICS.workflowActionFailed, 1],
      [METRICS.reviewItemOpened, 1],
      [METRICS.workflowActionErrored, 1],
    ]);
    const items = await reviewItemsOf(T);
    const reopened = items.find((i) => i.id !== item.id)!;
    expect(reopened).toMatchObject({ status: 'open', reason: 'action_failed', subject_id: item.subject_id });
    expect(seen.lines[0]).toMatchObject({ review_item_id: reopened.id, action_index: 0 });
  });

  it('discard: decided with no outbox event; a retry request for no such item does nothing', async () => {
    const { T, item } = await failedAction();
    const { jobs, written } = keeping();
    const decided: ReviewItem = await decideWorkflowAction({ jobs, clock: systemClock }, reviewer, item, {
      action: 'discard',
    });
    expect(decided).toMatchObject({ status: 'discarded', decision: 'discard', note: null });
    expect(written).toEqual([null]);

    const handle = workflowHandlers(deps())[EVENT_KINDS.workflowActionRetryRequested]!;
    const nothing = {
      ...recorded('exception.created', { tenant_id: T, id: 'x' }),
      kind: EVENT_KINDS.workflowActionRetryRequested,
      payload: { review_item_id: newId() },
    };
    const seen = await observed(() => handle(nothing, sqsRecord(MAX)));
    expect(seen).toEqual({ metrics: [], lines: [] });
    expect(await reviewItemsOf(T)).toHaveLength(1);
  });
});
