import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activeBackground } from '#local/background';
import { EVENT_KINDS, QUEUES } from '#shared/kernel/names';
import type { LocalQueue } from '#local/local-queue';
import { PASSWORD, type Seeded, seedTenant, until } from '#tests/support/e2e';
import { idle } from '#tests/support/idle';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * Workflow rules firing end to end (docs/api.md section 9.1): a change writes its outbox event
 * in its own transaction, the stream relay publishes it to the internal queue, and the internal
 * worker fires the tenant's matching rules, once per (rule, event, action) through redelivery;
 * a failed run lands in the review queue as one `workflow_action` item, where a decision replays or
 * discards it.
 */

let rt: TestRuntime;
let s: Seeded;
let internal: LocalQueue;

beforeAll(async () => {
  rt = await startRuntime({ OPS_LOCAL_QUEUE_MS_PER_SECOND: '10', OPS_LOCAL_SWEEP_INTERVAL_MS: '3600000' });
  s = await seedTenant(rt);
  internal = activeBackground()!.queues.queues.get(QUEUES.internal)!;
}, 60_000);
afterAll(() => rt?.stop());

/** Until the internal queue has nothing left to deliver (every message consumed). */
const drained = () =>
  until(async () => (internal.size === 0 ? true : undefined), 'the internal queue to drain');

const base = () => `/tenants/${s.tenantId}`;
const get = async (path: string) =>
  (await s.api.call('GET', `${base()}${path}`, { token: s.adminToken })).body;
const post = (path: string, body: unknown, token = s.adminToken) =>
  s.api.call('POST', `${base()}${path}`, { token, body });
const newRule = async (body: Record<string, unknown>) => {
  const r = await post('/workflow-rules', body, s.members.manager.token);
  expect(r.status).toBe(201);
  return r.body as { id: string };
};
const newException = async (severity: string, title = 'Payment short by 40.00') => {
  const r = await post('/exceptions', {
    exception_type: 'payment.amount_mismatch',
    subject_type: 'invoice',
    subject_id: 'INV-1042',
    title,
    summary: 'Bank shows 960.00 against 1000.00',
    severity,
  });
  expect(r.status).toBe(201);
  return r.body as { id: string };
};
const tasksAbout = async (type: string, id: string) =>
  (await get(`/tasks?subject_type=${type}&subject_id=${id}`)).items as Record<string, unknown>[];
const firedAudit = async (ruleId: string) =>
  (
    (await get(`/audit-events?entity_type=workflow_rule&entity_id=${ruleId}&limit=100`)).items as {
      event_type: string;
      metadata_json: string;
    }[]
  ).filter((e) => e.event_type === 'workflow_rule.fired');
const reviewItems = async (query = '') =>
  (await get(`/review-items?limit=100${query}`)).items as Record<string, unknown>[];

describe('workflow rules on the internal worker', () => {
  let critical: { id: string };
  let ruleId: string;

  it("a critical exception creates the rule's task and in-app notification once, via stream, queue and worker", async () => {
    ruleId = (
      await newRule({
        name: 'Critical exceptions need a manager',
        trigger: { event_type: 'exception.created' },
        conditions: [{ field: 'severity', op: 'eq', value: 'critical' }],
        actions: [
          { type: 'create_task', title: 'Look at: {{title}}', assignee_role: 'manager', due_in_hours: 4 },
          {
            type: 'notify',
            channel: 'in_app',
            recipient: s.members.owner.user_id,
            subject: 'Critical: {{title}}',
            body: '{{summary}}',
          },
        ],
      })
    ).id;
    const sent = vi.spyOn(internal, 'send');
    critical = await newException('critical');

    const [task] = await until(async () => {
      const found = await tasksAbout('exception', critical.id);
      return found.length ? found : undefined;
    }, 'the rule task');
    expect(task).toMatchObject({
      title: 'Look at: Payment short by 40.00',
      assignee_role: 'manager',
      source_rule_id: ruleId,
      status: 'open',
      subject_type: 'exception',
    });
    const exception = await get(`/exceptions/${critical.id}`);
    expect(Date.parse(task!.due_at as string) - Date.parse(exception.created_at)).toBeGreaterThanOrEqual(
      4 * 3_600_000 - 1000,
    );
    const delivered = await until(async () => {
      const list = (await get('/notifications?channel=in_app')).items as Record<string, unknown>[];
      const n = list.find((x) => x.subject === 'Critical: Payment short by 40.00');
      return n?.status === 'delivered' ? n : undefined;
    }, 'the rule notification to be delivered');
    expect(delivered).toMatchObject({
      recipient: s.members.owner.user_id,
      created_by: `workflow_rule:${ruleId}`,
      body: 'Bank shows 960.00 against 1000.00',
    });
    await drained();
    const fired = await firedAudit(ruleId);
    expect(fired).toHaveLength(1);
    expect(JSON.parse(fired[0]!.metadata_json)).toMatchObject({
      event_type: 'exception.created',
      entity_id: critical.id,
      actions: [
        { index: 0, type: 'create_task', result: 'created', id: task!.id },
        { index: 1, type: 'notify', result: 'created', id: delivered.id },
      ],
    });

    // The outbox event went through the relay to the internal queue, once.
    const published = sent.mock.calls
      .map(([body]) => JSON.parse(body))
      .filter((e) => e.kind === EVENT_KINDS.workflowEventRecorded && e.payload.entity_id === critical.id);
    expect(published).toHaveLength(1);
    expect(published[0].payload.event_type).toBe('exception.created');
    sent.mockRestore();
  });

  it('the same outbox message delivered twice more fires nothing new', async () => {
    const sent = vi.spyOn(internal, 'send');
    const other = await newException('critical', 'Second critical');
    await until(
      async () => ((await tasksAbout('exception', other.id)).length ? true : undefined),
      'the task',
    );
    await drained();
    const message = sent.mock.calls.find(([body]) => {
      const e = JSON.parse(body);
      return e.kind === EVENT_KINDS.workflowEventRecorded && e.payload.entity_id === other.id;
    })!;
    sent.mockRestore();
    const notificationsBefore = (await get('/notifications?limit=100')).items.length;

    internal.send(message[0], message[1]);
    internal.send(message[0], message[1]);
    await until(async () => (internal.size === 0 ? true : undefined), 'the redeliveries to be consumed');

    expect(await tasksAbout('exception', other.id)).toHaveLength(1);
    expect((await get('/notifications?limit=100')).items).toHaveLength(notificationsBefore);
    const fired = (await firedAudit(ruleId)).filter(
      (e) => JSON.parse(e.metadata_json).entity_id === other.id,
    );
    expect(fired).toHaveLength(1);
  });

  it('fires nothing for an event its conditions refuse, or for a disabled rule', async () => {
    const warning = await newException('warning');
    const rule = await s.api.call('GET', `${base()}/workflow-rules/${ruleId}`, { token: s.adminToken });
    await s.api.call('PATCH', `${base()}/workflow-rules/${ruleId}`, {
      token: s.members.owner.token,
      body: { version: rule.body.version, enabled: false },
    });
    const whileOff = await newException('critical', 'While the rule is off');
    // Both events reach the worker, which does nothing with them.
    await idle();
    expect(await tasksAbout('exception', warning.id)).toEqual([]);
    expect(await tasksAbout('exception', whileOff.id)).toEqual([]);
  });

  it('a voided invoice tells the owner in the app; a done task spawns its follow-up', async () => {
    await newRule({
      name: 'Tell the owner about voided invoices',
      trigger: { event_type: 'document.status_changed' },
      conditions: [
        { field: 'status', op: 'eq', value: 'void' },
        { field: 'document_type', op: 'eq', value: 'invoice' },
        { field: 'amount', op: 'gte', value: '1000' },
      ],
      actions: [
        {
          type: 'notify',
          channel: 'in_app',
          recipient: s.members.owner.user_id,
          subject: 'Invoice {{number}} voided',
          body: '{{number}} for {{amount}} {{currency}} to {{counterparty}} was voided.',
        },
      ],
    });
    await newRule({
      name: 'Follow up done tasks',
      trigger: { event_type: 'task.status_changed' },
      conditions: [{ field: 'status', op: 'eq', value: 'done' }],
      actions: [{ type: 'create_task', title: 'Follow up: {{title}}' }],
    });
    const invoice = await post('/documents', {
      document_type: 'invoice',
      number: 'INV-77',
      counterparty: 'Globex Ltd',
      currency: 'EUR',
      amount: '1000.00',
      issued_on: '2026-01-31',
    });
    await post(`/documents/${invoice.body.id}/status`, { status: 'void' });
    const note = await until(async () => {
      const list = (await get('/notifications?channel=in_app')).items as Record<string, unknown>[];
      return list.find((x) => x.subject === 'Invoice INV-77 voided' && x.status === 'delivered');
    }, 'the void notification');
    expect(note.body).toBe('INV-77 for 1000.00 EUR to Globex Ltd was voided.');

    const task = await post('/tasks', { title: 'Call the bank' }, s.members.operator.token);
    await post(`/tasks/${task.body.id}/status`, { status: 'done' }, s.members.operator.token);
    const followUp = await until(async () => {
      const found = await tasksAbout('task', task.body.id);
      return found.length ? found[0] : undefined;
    }, 'the follow-up task');
    expect(followUp.title).toBe('Follow up: Call the bank');
  });
});

describe('failed rule actions in the review queue', () => {
  it('a refused notification lands as workflow_action; retry after the fix runs it once, and is audited', async () => {
    // A user of another tenant: not a member here, so an in-app notification to them is refused.
    const elsewhere = await seedTenant(rt);
    const outsider = elsewhere.members.operator;
    const rule = await newRule({
      name: 'Tell the auditor',
      trigger: { event_type: 'exception.created' },
      conditions: [{ field: 'title', op: 'contains', value: 'auditor' }],
      actions: [{ type: 'notify', channel: 'in_app', recipient: outsider.user_id, body: 'See {{title}}' }],
    });
    await newException('info', 'For the auditor');
    const item = await until(async () => {
      const open = await reviewItems('&kind=workflow_action&status=open');
      return open.find((i) => String(i.detail).startsWith('rule "Tell the auditor"'));
    }, 'the review item');
    expect(item).toMatchObject({
      kind: 'workflow_action',
      reason: 'policy_rejected',
      notification_id: null,
      channel: 'in_app',
      status: 'open',
    });
    expect(String(item.detail)).toContain('invalid_recipient');
    // The item is about the run: its retry replays the run.
    const [run] = (await get(`/workflow-runs?rule_id=${rule.id}`)).items as Record<string, unknown>[];
    expect(item.subject_id).toBe(run!.id);
    expect((await reviewItems('&kind=notification')).map((i) => i.id)).not.toContain(item.id);

    // The fix: the user joins this tenant. Then two racing retries: one wins.
    const joined = await post('/members', {
      email: outsider.email,
      display_name: 'Auditor',
      role: 'support',
      password: PASSWORD,
    });
    expect(joined.status).toBe(201);
    const decide = () =>
      post(
        `/review-items/${item.id}/decision`,
        { action: 'retry', note: 'member now' },
        s.members.operator.token,
      );
    const [one, two] = await Promise.all([decide(), decide()]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const delivered = await until(async () => {
      const list = (await get(`/notifications?recipient=${outsider.user_id}`)).items as Record<
        string,
        unknown
      >[];
      const done = list.filter((n) => n.status === 'delivered');
      return done.length ? done : undefined;
    }, 'the retried notification');
    await drained();
    expect(delivered).toHaveLength(1);
    expect((await reviewItems()).find((i) => i.id === item.id)).toMatchObject({
      status: 'retried',
      decision: 'retry',
    });
    const audit = (await get(`/audit-events?entity_type=review_item&entity_id=${item.id}`)).items;
    expect(audit.map((e: { event_type: string }) => e.event_type)).toEqual(['review_item.decided']);
    const replayed = (await get(`/audit-events?entity_type=workflow_run&entity_id=${String(run!.id)}`)).items;
    expect(replayed.map((e: { event_type: string }) => e.event_type)).toEqual(['workflow_run.replayed']);
  });

  it('an action invalid once filled lands as workflow_action; discard closes it', async () => {
    await newRule({
      name: 'Broken title',
      trigger: { event_type: 'exception.created' },
      conditions: [{ field: 'title', op: 'eq', value: 'Broken' }],
      actions: [{ type: 'create_task', title: '{{no_such_field}}x' }],
    });
    const e = await newException('info', 'Broken');
    const item = await until(async () => {
      const open = await reviewItems('&kind=workflow_action');
      return open.find((i) => String(i.detail).startsWith('rule "Broken title"'));
    }, 'the review item');
    expect(item).toMatchObject({ reason: 'invalid_action', channel: null, status: 'open' });
    expect(await tasksAbout('exception', e.id)).toEqual([]);
    const d = await post(`/review-items/${item.id}/decision`, { action: 'discard' }, s.members.manager.token);
    expect(d.body).toMatchObject({ status: 'discarded', decision: 'discard', kind: 'workflow_action' });
    const again = await post(`/review-items/${item.id}/decision`, { action: 'retry' });
    expect([again.status, again.body.code]).toEqual([409, 'invalid_transition']);
    await drained();
    expect(await tasksAbout('exception', e.id)).toEqual([]);
  });
});
