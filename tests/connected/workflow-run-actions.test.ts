import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { workflowRunStore } from '#functions/adapters/workflow-run-store';
import { workflowRunDeps } from '#functions/workers/workflow-deps';
import { timerFireDeps } from '#functions/workers/timers';
import { changeExceptionStatus, createException } from '#shared/domain/exceptions/use-cases';
import type { OutboxEvent } from '#shared/domain/outbox';
import { changeTaskStatus, createTask } from '#shared/domain/tasks/use-cases';
import type { TaskStore } from '#shared/domain/tasks/ports';
import { fireTimer, sweepTimers } from '#shared/domain/timers/use-cases';
import { fireRules, MAX_RUN_DEPTH, resumeRun, type WorkflowRunDeps } from '#shared/domain/workflows/runner';
import { runSubjects } from '#shared/domain/workflows/subjects';
import { createRule } from '#shared/domain/workflows/use-cases';
import type { Clock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { drain, principal } from '#tests/support/fixtures';

/**
 * The run actions of docs/api.md, "Workflow runs", against DynamoDB Local with a manual clock:
 * `delay` waits on a `rule_delay` timer (listed with the tenant's timers, in the table, so a
 * restart loses nothing) and the actions after it see the subject as it is when it ends;
 * `set_status` moves the subject through its own machine as the system; a chain of runs that
 * keeps triggering itself stops at depth 5.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const manager = principal('manager-1', {}, true);
let now = Date.parse('2031-06-01T09:00:00.000Z');
const clock: Clock = { now: () => new Date(now) };
/** Every outbox event the stores below were given, in order. */
const written: OutboxEvent[] = [];

beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

const capturingTasks = (): TaskStore => ({
  ...stores.tasks,
  replace: async (next, readAt, audit, options) => {
    if (options.outbox) written.push(options.outbox);
    return stores.tasks.replace(next, readAt, audit, options);
  },
});

/** The worker's dependencies as the internal worker builds them, on this test's clock. */
const deps = (): WorkflowRunDeps => ({
  ...workflowRunDeps(db),
  clock,
  tasks: stores.tasks,
  subjects: runSubjects({
    exceptions: { exceptions: stores.exceptions, clock },
    tasks: { tasks: capturingTasks(), clock },
    documents: { documents: stores.documents, clock, zones: stores.zones },
  }),
  notifications: { ...workflowRunDeps(db).notifications, clock },
  maxAttempts: 3,
});

const ruleIn = (tenantId: string, input: Parameters<typeof createRule>[3]) =>
  createRule({ rules: stores.workflowRules, zones: stores.zones, clock }, manager, tenantId, input);

async function exceptionIn(tenantId: string, title: string) {
  let event: OutboxEvent | undefined;
  const exceptions = {
    ...stores.exceptions,
    create: async (...args: Parameters<typeof stores.exceptions.create>) => {
      event = args[2];
      return stores.exceptions.create(...args);
    },
  };
  const e = await createException({ exceptions, clock }, manager, tenantId, {
    exception_type: 'payment.amount_mismatch',
    subject_type: 'invoice',
    subject_id: 'INV-9',
    title,
    summary: 'Short by 40.00',
    severity: 'critical',
  });
  return { event: event!, id: e.id };
}

/** The outbox event of `kind` whose payload has `field` = `value` (as the relay would carry it). */
async function outboxEvent(kind: string, field: string, value: string): Promise<OutboxEvent> {
  for await (const e of pendingOlderThan(db, '9999'))
    if (e.kind === kind && e.payload[field] === value) return e;
  throw new Error(`no ${kind} with ${field} ${value}`);
}

/** The delay ends: the clock moves past it, the sweep claims the timer, the worker fires it and resumes the run. */
async function delayEnds(runId: string, minutes: number) {
  now += minutes * 60_000;
  const swept = await sweepTimers({ timers: timerStore(db), clock });
  expect(swept.fired.map((t) => t.id)).toContain(`rule_delay:${runId}`);
  const firing = await outboxEvent(EVENT_KINDS.timerFired, 'subject_id', runId);
  expect(await fireTimer(timerFireDeps(db, clock), firing)).toBe('written');
  // A redelivered firing queues the resumption once.
  expect(await fireTimer(timerFireDeps(db, clock), firing)).toBe('duplicate');
  const resumed = await outboxEvent(EVENT_KINDS.workflowRunResumed, 'run_id', runId);
  // A fresh set of dependencies, as after a restart: everything it needs is in the table.
  return resumeRun(deps(), resumed, 1);
}

const delayRule = (name: string, actions: Parameters<typeof createRule>[3]['actions']) => ({
  name,
  trigger: { event_type: 'exception.created' as const },
  conditions: [{ field: 'title', op: 'eq' as const, value: name }],
  actions,
  enabled: true,
});

describe('delay', () => {
  const T = 'delay-t';

  it('waits on a rule_delay timer listed with the timers; when it ends, the actions after it see the subject as it is then', async () => {
    const name = 'Wait then look';
    const rule = await ruleIn(
      T,
      delayRule(name, [
        { type: 'delay', minutes: 30 },
        { type: 'create_task', title: 'It was {{status}}', assignee_role: 'manager' },
        { type: 'set_status', status: 'resolved' },
      ]),
    );
    const { event, id } = await exceptionIn(T, name);
    const [firing] = await fireRules(deps(), event, 1);
    const runs = workflowRunStore(db);
    expect(await runs.get(T, firing!.run_id!)).toMatchObject({
      status: 'waiting',
      finished_at: null,
      actions: [
        { index: 0, type: 'delay', status: 'waiting' },
        { index: 1, type: 'create_task', status: 'pending' },
        { index: 2, type: 'set_status', status: 'pending' },
      ],
    });
    const timers = await timerStore(db).list(T, { kind: 'rule_delay' }, { limit: 10 });
    expect(timers.items).toEqual([
      {
        id: `rule_delay:${firing!.run_id}`,
        tenant_id: T,
        kind: 'rule_delay',
        subject_type: 'workflow_run',
        subject_id: firing!.run_id,
        due_at: new Date(now + 30 * 60_000).toISOString(),
        rule_id: rule.id,
      },
    ]);
    // Nothing was made yet, and a redelivery of the event does not act before the delay.
    expect(await fireRules(deps(), event, 2)).toEqual([expect.objectContaining({ actions: [] })]);
    expect(await drain((c) => stores.tasks.list(T, {}, { limit: 50, cursor: c }))).toEqual([]);

    // Meanwhile a person acknowledges it: the task's title and the move see that.
    now += 10 * 60_000;
    await changeExceptionStatus({ exceptions: stores.exceptions, clock }, manager, T, id, {
      status: 'acknowledged',
    });
    // Not yet due: the sweep leaves it.
    await sweepTimers({ timers: timerStore(db), clock });
    expect((await timerStore(db).list(T, { kind: 'rule_delay' }, { limit: 10 })).items).toHaveLength(1);

    await delayEnds(firing!.run_id!, 20);
    const [task] = await drain((c) => stores.tasks.list(T, {}, { limit: 50, cursor: c }));
    expect(task!.title).toBe('It was acknowledged');
    const exception = await stores.exceptions.get(T, id);
    expect(exception!.status).toBe('resolved');
    const done = await runs.get(T, firing!.run_id!);
    expect(done).toMatchObject({
      status: 'succeeded',
      finished_at: new Date(now).toISOString(),
      actions: [
        { status: 'done' },
        { status: 'done', result: { task_id: task!.id } },
        { status: 'done', result: { status: 'resolved' } },
      ],
    });
    // The system moved it: audited with no actor.
    const audits = await drain((c) =>
      stores.audit.list(T, { entity_type: 'exception', entity_id: id }, { limit: 50, cursor: c }),
    );
    const moves = audits.filter((a) => a.event_type === 'exception.status_changed');
    expect(moves.map((a) => [a.actor_id, a.summary])).toEqual(
      expect.arrayContaining([
        [null, 'acknowledged -> resolved'],
        ['manager-1', 'open -> acknowledged'],
      ]),
    );
  });

  it('set_status the subject no longer allows fails with invalid_transition, and the actions after it are skipped', async () => {
    const name = 'Wait then acknowledge';
    await ruleIn(
      T,
      delayRule(name, [
        { type: 'delay', minutes: 5 },
        { type: 'set_status', status: 'acknowledged' },
        {
          type: 'notify',
          channel: 'in_app',
          recipient_user_id: 'manager-1',
          body: 'acknowledged',
          category: 'general',
          priority: 'normal',
        },
      ]),
    );
    const { event, id } = await exceptionIn(T, name);
    const [firing] = await fireRules(deps(), event, 1);
    await changeExceptionStatus({ exceptions: stores.exceptions, clock }, manager, T, id, {
      status: 'resolved',
    });
    await delayEnds(firing!.run_id!, 5);
    expect(await workflowRunStore(db).get(T, firing!.run_id!)).toMatchObject({
      status: 'failed',
      actions: [
        { status: 'done' },
        {
          status: 'failed',
          error: { code: 'invalid_transition', message: expect.stringContaining('acknowledged') },
        },
        { status: 'skipped' },
      ],
    });
    expect((await stores.exceptions.get(T, id))!.status).toBe('resolved');
  });
});

describe('the loop guard', () => {
  const T = 'loop-t';

  it('rules that set the status that triggers them stop at depth 5: that run fails with loop_limit and opens a review item', async () => {
    const toggle = (name: string, from: string, to: 'open' | 'in_progress') =>
      ruleIn(T, {
        name,
        trigger: { event_type: 'task.status_changed' },
        conditions: [{ field: 'status', op: 'eq', value: from }],
        actions: [{ type: 'set_status', status: to }],
        enabled: true,
      });
    const back = await toggle('Back to open', 'in_progress', 'open');
    const forth = await toggle('On to in progress', 'open', 'in_progress');
    const task = await createTask({ tasks: stores.tasks, clock }, manager, T, { title: 'Ping pong' });
    written.length = 0;
    await changeTaskStatus({ tasks: capturingTasks(), clock }, manager, T, task.id, {
      status: 'in_progress',
    });
    const depths: string[] = [];
    for (let i = 0; i < 10 && written.length > 0; i++) {
      const event = written.shift()!;
      depths.push(String(event.payload.depth ?? 0));
      await fireRules(deps(), event, 1);
    }
    // The person's change, then one event per acting run, each one deeper.
    expect(depths).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(written).toEqual([]);
    const runs = [
      ...(await drain((c) => workflowRunStore(db).list(T, { rule_id: back.id }, { limit: 50, cursor: c }))),
      ...(await drain((c) => workflowRunStore(db).list(T, { rule_id: forth.id }, { limit: 50, cursor: c }))),
    ];
    expect(runs).toHaveLength(MAX_RUN_DEPTH + 1);
    const stopped = runs.filter((r) => r.status === 'failed');
    expect(stopped).toEqual([
      expect.objectContaining({
        rule_id: forth.id,
        depth: MAX_RUN_DEPTH,
        actions: [
          expect.objectContaining({
            status: 'failed',
            error: expect.objectContaining({ code: 'loop_limit' }),
          }),
        ],
      }),
    ]);
    const items = await drain((c) =>
      notificationStore(db).listReviewItems(T, { kind: 'workflow_action' }, { limit: 50, cursor: c }),
    );
    expect(items.map((i) => i.reason)).toEqual(['loop_limit']);
    // The stopped run did not act: the task is where the last acting run left it.
    expect((await stores.tasks.get(T, task.id))!.status).toBe('open');
  });
});
