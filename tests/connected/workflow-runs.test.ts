import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import type { createStores } from '#functions/adapters/stores';
import { workflowRunStore } from '#functions/adapters/workflow-run-store';
import { workflowRunDeps } from '#functions/workers/workflow-deps';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { TaskStore } from '#shared/domain/tasks/ports';
import { fireRules, resumeRun, type WorkflowRunDeps } from '#shared/domain/workflows/runner';
import { pendingOlderThan } from '#functions/adapters/outbox';
import { InvalidTransitionError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import { getReplay, requestRuleReplay, runRuleReplay } from '#shared/domain/workflows/replays';
import { EVENT_KINDS } from '#shared/kernel/names';
import {
  getRun,
  listRuns,
  replayRun,
  runReviewId,
  type RunStatus,
  type WorkflowRun,
  type WorkflowRunStore,
} from '#shared/domain/workflows/runs';
import { createRule, testRule, updateRule } from '#shared/domain/workflows/use-cases';
import { ruleMembers } from '#functions/adapters/workflow-rule-store';
import { member } from '#shared/table/entities/member';
import { derivedId, newId, systemClock } from '#shared/kernel/ids';
import { workflowRun } from '#shared/table/entities/workflow-run';
import { countingQueries, freshDb, loadItems } from '#tests/support/db';
import {
  drain,
  exceptionEvent as exceptionEventOf,
  principal,
  tasksOfException,
} from '#tests/support/fixtures';

/**
 * Workflow runs against DynamoDB Local (docs/api.md, "Workflow runs"): every matched firing is
 * one run with its actions' outcomes; a crash between the run and its first action's effect
 * leaves a run the redelivered event completes, never a second one; each list filter has a key,
 * so its first page is full however many runs do not match.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const T = 'runs-t';
const manager = principal('manager-1', {}, true);
const MAX = 3;

beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

const deps = (override: Partial<WorkflowRunDeps> = {}): WorkflowRunDeps => ({
  ...workflowRunDeps(db),
  maxAttempts: MAX,
  ...override,
});

/** A rule on this test's own exceptions (by title), so no other test's rule fires on them. */
const rule = (name: string) =>
  createRule({ rules: stores.workflowRules, zones: stores.zones, clock: systemClock }, manager, T, {
    name,
    trigger: { event_type: 'exception.created' },
    conditions: [
      { field: 'severity', op: 'eq', value: 'critical' },
      { field: 'title', op: 'eq', value: name },
    ],
    actions: [{ type: 'create_task', title: 'Look at {{title}}', assignee_role: 'manager' }],
    enabled: true,
  });

const exceptionEvent = (title: string, severity?: 'critical' | 'warning') =>
  exceptionEventOf(stores.exceptions, manager, T, title, severity);

const runsOf = (ruleId: string) =>
  drain((cursor) => workflowRunStore(db).list(T, { rule_id: ruleId }, { limit: 50, cursor }));
const tasksOf = (exceptionId: string) => tasksOfException(stores.tasks, T, exceptionId);

/** A port that throws once, on its first call, as a process that dies there would. */
const throwingOnce = <F extends (...args: never[]) => Promise<unknown>>(f: F): F => {
  let thrown = false;
  return (async (...args: Parameters<F>) => {
    if (!thrown) {
      thrown = true;
      throw Object.assign(new Error('the process stopped here'), { name: 'TimeoutError' });
    }
    return f(...args);
  }) as F;
};

describe('a matched firing', () => {
  it('is one run with its trigger, subject and each action outcome; an event that matches no rule makes none', async () => {
    const r = await rule('Critical needs a manager');
    const { event, id } = await exceptionEvent(r.name);
    const [firing] = await fireRules(deps(), event, 1);
    const [task] = await tasksOf(id);
    const run = await getRun({ runs: workflowRunStore(db) }, T, firing!.run_id!);
    expect(run).toEqual({
      id: derivedId(event.occurred_at, r.id, event.event_id, 'run'),
      tenant_id: T,
      rule_id: r.id,
      rule_version: 1,
      trigger: { event_id: event.event_id, event_type: 'exception.created' },
      subject_type: 'exception',
      subject_id: id,
      status: 'succeeded',
      actions: [
        {
          index: 0,
          type: 'create_task',
          status: 'done',
          result: { task_id: task!.id },
          at: expect.any(String),
        },
      ],
      replays: [],
      created_at: expect.any(String),
      finished_at: expect.any(String),
    });
    const stored = await workflowRunStore(db).get(T, run.id);
    // Kept 30 days from its start.
    expect(stored!.ttl).toBe(Math.floor(Date.parse(run.created_at) / 1000) + 30 * 86400);

    const { event: warning } = await exceptionEvent(r.name, 'warning');
    expect(await fireRules(deps(), warning, 1)).toEqual([]);
    expect(await runsOf(r.id)).toHaveLength(1);
  });
});

describe('a crash between the run and its action', () => {
  it('after the run was written, before the action: the redelivered event completes the same run, one task', async () => {
    const r = await rule('Crash before the action');
    const { event, id } = await exceptionEvent(r.name);
    const tasks: TaskStore = {
      ...stores.tasks,
      create: throwingOnce(stores.tasks.create.bind(stores.tasks)),
    };
    await expect(fireRules(deps({ tasks }), event, 1)).rejects.toThrow('the process stopped here');
    const [started, ...none] = await runsOf(r.id);
    expect(none).toEqual([]);
    // The run and the effect agree: no task, the action pending, the run running.
    expect(started).toMatchObject({ status: 'running', actions: [{ index: 0, status: 'pending' }] });
    expect(await tasksOf(id)).toEqual([]);

    await fireRules(deps({ tasks }), event, 2);
    const [task, ...more] = await tasksOf(id);
    expect(more).toEqual([]);
    const runs = await runsOf(r.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      id: started!.id,
      status: 'succeeded',
      actions: [{ status: 'done', result: { task_id: task!.id } }],
    });
  });

  it('after the action, before the run was saved: the redelivery finds the task made and completes the same run', async () => {
    const r = await rule('Crash after the action');
    const { event, id } = await exceptionEvent(r.name);
    const store = workflowRunStore(db);
    const runs: WorkflowRunStore = { ...store, save: throwingOnce(store.save) };
    await expect(fireRules(deps({ runs }), event, 1)).rejects.toThrow('the process stopped here');
    expect(await tasksOf(id)).toHaveLength(1);
    await fireRules(deps({ runs }), event, 2);
    const [task, ...more] = await tasksOf(id);
    expect(more).toEqual([]);
    const all = await runsOf(r.id);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      status: 'succeeded',
      actions: [{ status: 'done', result: { task_id: task!.id } }],
    });
  });

  it('a failed action shows in the run: its code and message, and the run failed', async () => {
    const r = await rule('Always failing');
    const { event } = await exceptionEvent(r.name);
    const tasks: TaskStore = {
      ...stores.tasks,
      create: async () => {
        throw new Error('throttled');
      },
    };
    await fireRules(deps({ tasks }), event, MAX);
    const [run] = await runsOf(r.id);
    expect(run).toMatchObject({
      status: 'failed',
      actions: [{ status: 'failed', error: { code: 'action_failed', message: expect.any(String) } }],
    });
    // workflow_run.failed: recorded with the run's read shape (subscribable, a rule trigger), once.
    await fireRules(deps({ tasks }), event, MAX);
    const failed: OutboxEvent[] = [];
    for await (const e of pendingOlderThan(db, '9999'))
      if (e.payload.event_type === 'workflow_run.failed' && e.payload.entity_id === run!.id) failed.push(e);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.kind).toBe(EVENT_KINDS.workflowEventRecorded);
    expect(failed[0]!.payload.depth).toBe('1');
    expect(JSON.parse(String(failed[0]!.payload.entity_json))).toMatchObject({
      id: run!.id,
      rule_id: r.id,
      status: 'failed',
    });
    expect(JSON.parse(String(failed[0]!.payload.entity_json))).not.toHaveProperty('ttl');
  });
});

describe('the runs list at any size (docs/api.md section 4)', () => {
  const L = 'runs-list';
  const RULE_A = 'rule-a';
  const RULE_B = 'rule-b';
  const base = Date.parse('2031-01-10T00:00:00.000Z');
  const runAt = (i: number, over: Partial<WorkflowRun>): WorkflowRun => {
    const at = new Date(base + i * 60_000).toISOString();
    return {
      id: derivedId(at, newId()),
      tenant_id: L,
      rule_id: RULE_A,
      rule_version: 1,
      trigger: { event_id: newId(), event_type: 'exception.created' },
      subject_type: 'exception',
      subject_id: `E-${i}`,
      status: 'succeeded',
      actions: [],
      replays: [],
      created_at: at,
      finished_at: at,
      ttl: 0,
      event_at: at,
      depth: 0,
      ...over,
    };
  };
  // 300 succeeded runs of rule A; among them, 3 failed runs of rule B on subject X and 2 waiting of rule B.
  const wanted: Record<string, string[]> = {};
  beforeAll(async () => {
    const runs: WorkflowRun[] = [];
    for (let i = 0; i < 300; i++) runs.push(runAt(i, {}));
    const failed = [50, 150, 250].map((i) =>
      runAt(i, { rule_id: RULE_B, status: 'failed', subject_type: 'task', subject_id: 'X' }),
    );
    const waiting = [100, 200].map((i) => runAt(i, { rule_id: RULE_B, status: 'waiting' as RunStatus }));
    runs.push(...failed, ...waiting);
    await loadItems(
      db,
      runs.map((r) => workflowRun.item(r)),
    );
    const newest = (list: WorkflowRun[]) =>
      list
        .map((r) => r.id)
        .sort()
        .reverse();
    wanted.failed = newest(failed);
    wanted.ruleB = newest([...failed, ...waiting]);
  });

  const list = async (filter: Parameters<WorkflowRunStore['list']>[1], limit: number, cursor?: string) => {
    const counted = countingQueries(db);
    const page = await workflowRunStore(counted.db).list(L, filter, { limit, cursor });
    return { page, queries: counted.queries };
  };

  it('by status: a full first page in one Query that reads only what it returns', async () => {
    const { page, queries } = await list({ status: 'failed' }, 2);
    expect(page.items.map((r) => r.id)).toEqual(wanted.failed!.slice(0, 2));
    expect(queries).toEqual([{ scanned: 2, index: 'gsi2' }]);
    const rest = await workflowRunStore(db).list(
      L,
      { status: 'failed' },
      { limit: 2, cursor: page.next_cursor! },
    );
    expect(rest.items.map((r) => r.id)).toEqual(wanted.failed!.slice(2));
  });

  it('by rule: one page-sized Query per status, merged newest first, and the cursor goes on from the last', async () => {
    const first = await list({ rule_id: RULE_B }, 3);
    expect(first.page.items.map((r) => r.id)).toEqual(wanted.ruleB!.slice(0, 3));
    expect(first.queries).toHaveLength(4);
    expect(first.queries.reduce((n, q) => n + q.scanned, 0)).toBeLessThanOrEqual(5);
    const second = await list({ rule_id: RULE_B }, 3, first.page.next_cursor!);
    expect(second.page.items.map((r) => r.id)).toEqual(wanted.ruleB!.slice(3));
    expect(second.page.next_cursor).toBeNull();
  });

  it('by rule and status, and by subject: one Query each, reading only the matches', async () => {
    const byBoth = await list({ rule_id: RULE_B, status: 'failed' }, 10);
    expect(byBoth.page.items.map((r) => r.id)).toEqual(wanted.failed);
    expect(byBoth.queries).toEqual([{ scanned: 3, index: 'gsi1' }]);
    const bySubject = await list({ subject_type: 'task', subject_id: 'X' }, 10);
    expect(bySubject.page.items.map((r) => r.id)).toEqual(wanted.failed);
    expect(bySubject.queries).toEqual([{ scanned: 3, index: 'gsi3' }]);
  });

  it('since: a sort-key bound, so a page holds only runs started then or later, read alone', async () => {
    const since = new Date(base + 200 * 60_000).toISOString();
    const { page, queries } = await list({ status: 'failed', since }, 10);
    expect(page.items.map((r) => r.id)).toEqual(wanted.failed!.slice(0, 1));
    expect(queries).toEqual([{ scanned: 1, index: 'gsi2' }]);
    const byRule = await list({ rule_id: RULE_B, since }, 10);
    expect(byRule.page.items.map((r) => r.id)).toEqual(wanted.ruleB!.slice(0, 2));
    // Page by page with the bound too: the cursor's own run is not repeated.
    const one = await list({ rule_id: RULE_B, since }, 1);
    const two = await list({ rule_id: RULE_B, since }, 1, one.page.next_cursor!);
    expect([...one.page.items, ...two.page.items].map((r) => r.id)).toEqual(wanted.ruleB!.slice(0, 2));
    const all = await listRuns({ runs: workflowRunStore(db) }, L, { since, limit: 100 });
    expect(all.items).toHaveLength(100);
    expect(all.items.every((r) => r.created_at >= since)).toBe(true);
  });
});

const pendingEvents = async (kind: string, runId: string) => {
  const found: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999'))
    if (e.kind === kind && e.payload.run_id === runId) found.push(e);
  return found;
};

describe('replay', () => {
  const replayDeps = () => ({ runs: workflowRunStore(db), rules: stores.workflowRules, clock: systemClock });

  it('ten concurrent replays of a failed run: one wins (the rest 409), its failed action gets one new attempt, the done one none', async () => {
    const r = await createRule(
      { rules: stores.workflowRules, zones: stores.zones, clock: systemClock },
      manager,
      T,
      {
        name: 'Two tasks',
        trigger: { event_type: 'exception.created' },
        conditions: [{ field: 'title', op: 'eq', value: 'Two tasks' }],
        actions: [
          { type: 'create_task', title: 'First {{title}}', assignee_role: 'manager' },
          { type: 'create_task', title: 'Second {{title}}', assignee_role: 'manager' },
        ],
        enabled: true,
      },
    );
    const { event, id } = await exceptionEvent('Two tasks');
    const tasks: TaskStore = {
      ...stores.tasks,
      create: async (...args: Parameters<TaskStore['create']>) => {
        if (args[0].title.startsWith('Second')) throw new Error('throttled');
        return stores.tasks.create(...args);
      },
    };
    const [firing] = await fireRules(deps({ tasks }), event, MAX);
    const runId = firing!.run_id!;
    expect(await workflowRunStore(db).get(T, runId)).toMatchObject({
      status: 'failed',
      actions: [{ status: 'done' }, { status: 'failed' }],
    });

    const tries = await Promise.allSettled(
      Array.from({ length: 10 }, () => replayRun(replayDeps(), manager, T, runId)),
    );
    const won = tries.filter((t) => t.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const t of tries.filter((x) => x.status === 'rejected'))
      expect((t as PromiseRejectedResult).reason).toBeInstanceOf(InvalidTransitionError);
    // Running now: another replay is 409 until it ends.
    await expect(replayRun(replayDeps(), manager, T, runId)).rejects.toBeInstanceOf(InvalidTransitionError);

    const requested: OutboxEvent[] = [];
    for await (const e of pendingOlderThan(db, '9999'))
      if (e.kind === EVENT_KINDS.workflowRunResumed && e.payload.run_id === runId) requested.push(e);
    expect(requested).toHaveLength(1);
    // Delivered twice (at least once): the second finds the replay done.
    await resumeRun(deps(), requested[0]!, 1);
    await resumeRun(deps(), requested[0]!, 2);

    const made = await tasksOf(id);
    expect(made.map((t) => t.title).sort()).toEqual(['First Two tasks', 'Second Two tasks']);
    const run = await workflowRunStore(db).get(T, runId);
    expect(run).toMatchObject({
      status: 'succeeded',
      actions: [{ status: 'done' }, { status: 'done' }],
      replays: [{ actor_id: 'manager-1', rule_version: r.version }],
    });
    const audits = await drain((cursor) =>
      stores.audit.list(T, { entity_type: 'workflow_run', entity_id: runId }, { limit: 50, cursor }),
    );
    expect(audits.map((a) => [a.event_type, a.actor_id])).toEqual([['workflow_run.replayed', 'manager-1']]);
  });

  it('a replay from the run decides its open review item in the same transaction; failing again reopens it', async () => {
    await createRule({ rules: stores.workflowRules, zones: stores.zones, clock: systemClock }, manager, T, {
      name: 'Item closed by replay',
      trigger: { event_type: 'exception.created' },
      conditions: [{ field: 'title', op: 'eq', value: 'Item closed by replay' }],
      actions: [{ type: 'create_task', title: 'Look at {{title}}', assignee_role: 'manager' }],
      enabled: true,
    });
    const { event } = await exceptionEvent('Item closed by replay');
    const refusing: TaskStore = {
      ...stores.tasks,
      create: async () => {
        throw new Error('throttled');
      },
    };
    // The last attempt: the run ends failed and opens its one review item.
    const [firing] = await fireRules(deps({ tasks: refusing }), event, MAX);
    const run = (await workflowRunStore(db).get(T, firing!.run_id!))!;
    const itemId = runReviewId(run);
    expect(await workflowRunStore(db).reviewItem(T, itemId)).toMatchObject({ status: 'open' });

    await replayRun(replayDeps(), manager, T, run.id);
    expect(await workflowRunStore(db).reviewItem(T, itemId)).toMatchObject({
      status: 'retried',
      decision: 'retry',
      decided_by: 'manager-1',
      note: 'replayed from the run',
    });
    const decided = await drain((cursor) =>
      stores.audit.list(T, { entity_type: 'review_item', entity_id: itemId }, { limit: 50, cursor }),
    );
    expect(decided.map((a) => [a.event_type, a.actor_id])).toEqual([['review_item.decided', 'manager-1']]);

    // The replay fails the same way: the run's one item is open again, not a second one.
    const [resumed] = (await pendingEvents(EVENT_KINDS.workflowRunResumed, run.id)).slice(-1);
    await resumeRun(deps({ tasks: refusing }), resumed!, MAX);
    expect(await workflowRunStore(db).get(T, run.id)).toMatchObject({ status: 'failed' });
    expect(await workflowRunStore(db).reviewItem(T, itemId)).toMatchObject({ status: 'open' });
  });

  it('a waiting run is 409, and an unknown run 404', async () => {
    const r = await createRule(
      { rules: stores.workflowRules, zones: stores.zones, clock: systemClock },
      manager,
      T,
      {
        name: 'Waits',
        trigger: { event_type: 'exception.created' },
        conditions: [{ field: 'title', op: 'eq', value: 'Waits' }],
        actions: [{ type: 'delay', minutes: 60 }],
        enabled: true,
      },
    );
    const { event } = await exceptionEvent(r.name);
    const [firing] = await fireRules(deps(), event, 1);
    await expect(replayRun(replayDeps(), manager, T, firing!.run_id!)).rejects.toBeInstanceOf(
      InvalidTransitionError,
    );
    await expect(replayRun(replayDeps(), manager, T, 'no-such-run')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("replay of a rule's failed runs", () => {
  it('counts them when asked (202 queued), replays each on the worker with readable progress, and skips one no longer failed', async () => {
    const r = await createRule(
      { rules: stores.workflowRules, zones: stores.zones, clock: systemClock },
      manager,
      T,
      {
        name: 'Bulk',
        trigger: { event_type: 'exception.created' },
        conditions: [{ field: 'title', op: 'eq', value: 'Bulk' }],
        actions: [{ type: 'create_task', title: 'Bulk {{id}}', assignee_role: 'manager' }],
        enabled: true,
      },
    );
    const throttled: TaskStore = {
      ...stores.tasks,
      create: async () => {
        throw new Error('throttled');
      },
    };
    const runIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { event } = await exceptionEvent('Bulk');
      const [firing] = await fireRules(deps({ tasks: throttled }), event, MAX);
      runIds.push(firing!.run_id!);
    }
    const rd = { ...workflowRunDeps(db), clock: systemClock };
    const since = new Date(Date.now() - 86_400_000).toISOString();
    await expect(
      requestRuleReplay(rd, manager, T, r.id, {
        since: new Date(Date.now() - 31 * 86_400_000).toISOString(),
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    const asked = await requestRuleReplay(rd, manager, T, r.id, { since });
    expect(asked).toMatchObject({ status: 'queued', queued: 3, replayed: 0, skipped: 0 });
    // One of them is replayed by hand meanwhile: the bulk replay skips it.
    await replayRun(rd, manager, T, runIds[0]!);

    const requested = async (kind: string, field: string, value: string) => {
      for await (const e of pendingOlderThan(db, '9999'))
        if (e.kind === kind && e.payload[field] === value) return e;
      throw new Error(`no ${kind}`);
    };
    await runRuleReplay(rd, await requested(EVENT_KINDS.workflowRuleReplayRequested, 'replay_id', asked.id));
    expect(await getReplay(rd, T, asked.id)).toMatchObject({
      status: 'done',
      queued: 3,
      replayed: 2,
      skipped: 1,
    });
    for (const id of runIds)
      await resumeRun(deps(), await requested(EVENT_KINDS.workflowRunResumed, 'run_id', id), 1);
    const runs = await runsOf(r.id);
    expect(runs.map((x) => x.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });
});

describe('a notify action naming a member of another tenant', () => {
  it('is 422 not_a_member at create, at update and in the test; a member of the tenant passes', async () => {
    await loadItems(db, [
      member.item({ tenant_id: T, user_id: 'own-member', role: 'manager' }),
      member.item({ tenant_id: 'other-tenant', user_id: 'their-member', role: 'manager' }),
    ]);
    const rd = {
      rules: stores.workflowRules,
      zones: stores.zones,
      members: ruleMembers(db),
      clock: systemClock,
    };
    const notify = (user: string) => ({
      type: 'notify' as const,
      channel: 'in_app' as const,
      recipient_user_id: user,
      body: 'Look',
      category: 'general' as const,
      priority: 'normal' as const,
    });
    const input = (user: string) => ({
      name: 'Tell someone',
      trigger: { event_type: 'exception.created' as const },
      conditions: [],
      actions: [notify('{{assignee_id}}'), notify(user)],
      enabled: true,
    });
    const refused = async (p: Promise<unknown>) => {
      const err = await p.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).errors).toEqual([
        {
          path: 'actions.1.recipient_user_id',
          code: 'not_a_member',
          message: 'must be a member of the tenant',
        },
      ]);
    };
    await refused(createRule(rd, manager, T, input('their-member')));
    const rule = await createRule(rd, manager, T, input('own-member'));
    await refused(
      updateRule(rd, manager, T, rule.id, { version: 1, actions: input('their-member').actions }),
    );
    // A rule stored before the check (written without it) is refused when tried.
    const old = await createRule({ ...rd, members: undefined }, manager, T, input('their-member'));
    await refused(
      testRule(rd, T, old.id, { event: { event_type: 'exception.created', entity: { id: 'e' } } }),
    );
    expect(
      await testRule(rd, T, rule.id, { event: { event_type: 'exception.created', entity: { id: 'e' } } }),
    ).toMatchObject({ matched: true, side_effects: 'none' });
  });
});
