import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import type { createStores } from '#functions/adapters/stores';
import { addMember, createTenant } from '#shared/domain/identity/tenants';
import {
  changeTaskStatus,
  createRuleTask,
  createTask,
  getTask,
  laterThan,
  listTasks,
  updateTask,
} from '#shared/domain/tasks/use-cases';
import { ConflictError, InvalidTransitionError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import { type Clock, systemClock } from '#shared/kernel/ids';
import { freshDb } from '#tests/support/db';
import { audit, drain, principal } from '#tests/support/fixtures';

let db: Db;
let stores: ReturnType<typeof createStores>;
let memberId: string;
const T = 'acme';
const admin = principal('admin', {}, true);

beforeAll(async () => {
  ({ db, stores } = await freshDb());
  const identity = { identity: stores.identity, tenants: stores.tenants, clock: systemClock };
  await createTenant(identity, admin, { id: T, name: 'Acme' });
  const m = await addMember(identity, admin, T, {
    email: 'op@acme.test',
    display_name: 'Op',
    role: 'operator',
    password: 'correct horse battery',
  });
  memberId = m.user_id;
});

const deps = (clock: Clock = systemClock) => ({ tasks: stores.tasks, clock });
const actor = principal('operator-1', {}, true);
const itemCount = async () =>
  (await db.doc.send(new ScanCommand({ TableName: db.tableName, Select: 'COUNT' }))).Count ?? 0;
const auditOf = (id: string) =>
  drain((cursor) => stores.audit.list(T, { entity_type: 'task', entity_id: id }, { limit: 100, cursor }));
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('tasks', () => {
  it('are created open, with one audit event, and read back', async () => {
    const t = await createTask(deps(), actor, T, {
      title: 'Call the bank',
      assignee_id: memberId,
      due_at: '2026-02-01T10:00:00+01:00',
    });
    expect(t).toMatchObject({
      status: 'open',
      source_rule_id: null,
      completed_at: null,
      due_at: '2026-02-01T09:00:00.000Z',
      subject_type: null,
    });
    expect(await getTask(deps(), T, t.id)).toEqual(t);
    expect((await auditOf(t.id)).map((a) => a.event_type)).toEqual(['task.created']);
    expect(await rejection(getTask(deps(), T, 'no-such-task'))).toBeInstanceOf(NotFoundError);
  });

  it("a workflow rule's task: created once under its id, the rule named as the actor; a redelivery is a duplicate", async () => {
    const id = `rule-task-${Date.now()}`;
    const rule = { id: 'rule-7', name: 'Chase overdue invoices' };
    const input = { title: 'Chase INV-9', assignee_role: 'accountant' as const };
    expect(await createRuleTask(deps(), rule, T, input, id)).toBe('created');
    expect(await createRuleTask(deps(), rule, T, input, id)).toBe('duplicate');
    expect(await getTask(deps(), T, id)).toMatchObject({ title: 'Chase INV-9', source_rule_id: 'rule-7' });
    const events = await auditOf(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event_type: 'task.created',
      actor_id: 'workflow_rule:rule-7',
      entity_type: 'task',
      entity_id: id,
      summary: 'Chase INV-9',
    });
    expect(JSON.parse(events[0]!.metadata_json!)).toEqual({
      source_rule_id: 'rule-7',
      rule_name: 'Chase overdue invoices',
      assignee_role: 'accountant',
    });
  });

  it('refuse an assignee who is not a member (422 on assignee_id), storing nothing', async () => {
    const before = await itemCount();
    const err = await rejection(
      createTask(deps(), actor, T, { title: 'Nobody', assignee_id: 'no-such-user' }),
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual([
      { path: 'assignee_id', code: 'not_member', message: 'is not a member of this tenant' },
    ]);
    // A member of another tenant is not a member of this one.
    expect(
      await rejection(createTask(deps(), actor, 'globex', { title: 'Elsewhere', assignee_id: memberId })),
    ).toBeInstanceOf(ValidationError);
    expect(await itemCount()).toBe(before);
  });

  describe('PATCH', () => {
    it('changes only what differs, with one task.updated audit event naming the fields', async () => {
      const t = await createTask(deps(), actor, T, { title: 'Draft', description: 'x' });
      const same = await updateTask(deps(), actor, T, t.id, { title: 'Draft', description: 'x' });
      expect(same).toEqual(t);
      expect(await auditOf(t.id)).toHaveLength(1);
      const next = await updateTask(deps(), actor, T, t.id, {
        title: 'Final',
        description: null,
        assignee_id: memberId,
        assignee_role: 'manager',
      });
      expect(next).toMatchObject({
        title: 'Final',
        description: null,
        assignee_id: memberId,
        status: 'open',
      });
      expect(next.updated_at > t.updated_at).toBe(true);
      const events = await auditOf(t.id);
      expect(events.map((a) => a.event_type)).toEqual(['task.updated', 'task.created']);
      expect(JSON.parse(events[0]!.metadata_json!).changed.sort()).toEqual([
        'assignee_id',
        'assignee_role',
        'description',
        'title',
      ]);
      expect(events[0]!.summary).toBe('changed title, description, assignee_role, assignee_id');
      const cleared = await updateTask(deps(), actor, T, t.id, { assignee_id: null });
      expect(cleared.assignee_id).toBeNull();
    });

    it('a due date is compared as an instant: the same moment in another offset changes nothing', async () => {
      const t = await createTask(deps(), actor, T, { title: 'Due', due_at: '2026-02-01T10:00:00+01:00' });
      expect(await updateTask(deps(), actor, T, t.id, { due_at: '2026-02-01T09:00:00Z' })).toEqual(t);
      const moved = await updateTask(deps(), actor, T, t.id, { due_at: '2026-02-02T10:00:00+01:00' });
      expect(moved.due_at).toBe('2026-02-02T09:00:00.000Z');
      expect((await auditOf(t.id))[0]!.summary).toBe('changed due_at');
    });

    it('refuses a non-member assignee with 422 and changes nothing', async () => {
      const t = await createTask(deps(), actor, T, { title: 'Keep' });
      const err = await rejection(
        updateTask(deps(), actor, T, t.id, { title: 'Changed', assignee_id: 'ghost' }),
      );
      expect(err).toBeInstanceOf(ValidationError);
      expect(await getTask(deps(), T, t.id)).toEqual(t);
    });

    it('never undoes a status change it raced with: the stale write is 409 conflict', async () => {
      const t = await createTask(deps(), actor, T, { title: 'Race' });
      const store = stores.tasks;
      // The PATCH reads the task, then the status changes before the PATCH writes.
      const racing = {
        ...store,
        get: async (tenantId: string, id: string) => {
          const found = await store.get(tenantId, id);
          await changeTaskStatus(deps(), actor, T, t.id, { status: 'done' });
          return found;
        },
      };
      const err = await rejection(
        updateTask({ tasks: racing, clock: systemClock }, actor, T, t.id, { title: 'X' }),
      );
      expect(err).toEqual(new ConflictError('The task changed meanwhile; read it again.'));
      expect(await getTask(deps(), T, t.id)).toMatchObject({ status: 'done', title: 'Race' });
    });

    it('stays safe when two writes fall in the same millisecond', async () => {
      const frozen: Clock = { now: () => new Date('2026-01-31T10:00:00.000Z') };
      const t = await createTask(deps(frozen), actor, T, { title: 'Frozen' });
      const a = await updateTask(deps(frozen), actor, T, t.id, { title: 'First' });
      expect(a.updated_at > t.updated_at).toBe(true);
      // A writer that read the task before `a` must lose, though the clock has not moved.
      const stale = { ...t, title: 'Stale', updated_at: laterThan(t.updated_at, frozen.now()) };
      const options = { checkAssignee: false, outbox: null };
      expect(await stores.tasks.replace(stale, t.updated_at, audit(T, 'task', t.id), options)).toBe(
        'changed',
      );
      expect((await getTask(deps(), T, t.id)).title).toBe('First');
    });
  });

  describe('status', () => {
    it('open -> in_progress -> open -> done sets completed_at; done and cancelled are final', async () => {
      const t = await createTask(deps(), actor, T, { title: 'Flow' });
      await changeTaskStatus(deps(), actor, T, t.id, { status: 'in_progress' });
      await changeTaskStatus(deps(), actor, T, t.id, { status: 'open' });
      const done = await changeTaskStatus(deps(), actor, T, t.id, { status: 'done', note: 'paid' });
      expect(done.completed_at).toBe(done.updated_at);
      for (const status of ['open', 'in_progress', 'done', 'cancelled'] as const)
        expect(await rejection(changeTaskStatus(deps(), actor, T, t.id, { status }))).toBeInstanceOf(
          InvalidTransitionError,
        );
      const c = await createTask(deps(), actor, T, { title: 'Cancel' });
      const cancelled = await changeTaskStatus(deps(), actor, T, c.id, { status: 'cancelled' });
      expect(cancelled.completed_at).toBeNull();
      expect(await rejection(changeTaskStatus(deps(), actor, T, t.id, { status: 'open' }))).toEqual(
        new InvalidTransitionError('A task that is done cannot become open.'),
      );
      const [last, , first] = await auditOf(t.id);
      expect([first!.summary, last!.summary]).toEqual(['open -> in_progress', 'open -> done']);
      expect(JSON.parse(last!.metadata_json!)).toEqual({ from: 'open', to: 'done', note: 'paid' });
      expect(JSON.parse(first!.metadata_json!)).toEqual({ from: 'open', to: 'in_progress', note: null });
      expect(await rejection(changeTaskStatus(deps(), actor, T, c.id, { status: 'open' }))).toBeInstanceOf(
        InvalidTransitionError,
      );
      expect((await auditOf(t.id)).map((a) => a.event_type)).toEqual([
        'task.status_changed',
        'task.status_changed',
        'task.status_changed',
        'task.created',
      ]);
    });

    it('two racing changes: exactly one wins, the other is 409 invalid_transition', async () => {
      for (let round = 0; round < 3; round++) {
        const t = await createTask(deps(), actor, T, { title: `Race ${round}` });
        const results = await Promise.allSettled([
          changeTaskStatus(deps(), principal('a'), T, t.id, { status: 'done' }),
          changeTaskStatus(deps(), principal('b'), T, t.id, { status: 'cancelled' }),
        ]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        // The loser reads the winner's status (a refused move) or loses the conditional write.
        expect(lost?.reason).toBeInstanceOf(InvalidTransitionError);
        expect([
          'The task changed meanwhile; read it again.',
          expect.stringMatching(/^An? task that is \w+ cannot become \w+\.$/),
        ]).toContainEqual((lost?.reason as Error).message);
        expect(await auditOf(t.id)).toHaveLength(2);
      }
    });
  });
});

describe('listing', () => {
  const L = 'lists';
  let assignee: string;
  beforeAll(async () => {
    const identity = { identity: stores.identity, tenants: stores.tenants, clock: systemClock };
    await createTenant(identity, admin, { id: L, name: 'Lists' });
    assignee = (
      await addMember(identity, admin, L, {
        email: 'lister@acme.test',
        display_name: 'L',
        role: 'operator',
        password: 'correct horse battery',
      })
    ).user_id;
    // K0..K5: K1, K3, K5 assigned; K0..K2 about invoice I-1, the rest unrelated; K4, K5 done.
    for (let i = 0; i < 6; i++) {
      const t = await createTask(deps(), actor, L, {
        title: `K${i}`,
        ...(i % 2 ? { assignee_id: assignee } : {}),
        ...(i < 3 ? { subject_type: 'invoice', subject_id: 'I-1' } : {}),
      });
      if (i >= 4) await changeTaskStatus(deps(), actor, L, t.id, { status: 'done' });
    }
  });
  const titles = async (filter: Parameters<typeof listTasks>[2]) =>
    (await drain((cursor) => listTasks(deps(), L, filter, { limit: 2, cursor }))).map((t) => t.title);

  it('newest first, by every filter and their combinations, across pages', async () => {
    expect(await titles({})).toEqual(['K5', 'K4', 'K3', 'K2', 'K1', 'K0']);
    expect(await titles({ status: 'done' })).toEqual(['K5', 'K4']);
    expect(await titles({ assignee_id: assignee })).toEqual(['K5', 'K3', 'K1']);
    expect(await titles({ assignee_id: assignee, status: 'open' })).toEqual(['K3', 'K1']);
    expect(await titles({ subject_type: 'invoice', subject_id: 'I-1' })).toEqual(['K2', 'K1', 'K0']);
    expect(await titles({ subject_id: 'I-1', assignee_id: assignee })).toEqual(['K1']);
    expect(await titles({ status: 'open', subject_type: 'invoice' })).toEqual(['K2', 'K1', 'K0']);
  });

  it('the assignee index follows a reassignment', async () => {
    const t = await createTask(deps(), actor, L, { title: 'Move', assignee_id: assignee });
    await updateTask(deps(), actor, L, t.id, { assignee_id: null });
    expect(await titles({ assignee_id: assignee })).not.toContain('Move');
  });
});
