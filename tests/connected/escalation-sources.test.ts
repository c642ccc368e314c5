import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { Db } from '#functions/adapters/dynamo';
import { escalationPolicyStore, memberDirectory } from '#functions/adapters/escalation-policy-store';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { hubHandlers } from '#functions/workers/hub';
import { workflowRunDeps } from '#functions/workers/workflow-deps';
import { timerFireDeps } from '#functions/workers/timers';
import { EscalationPolicyCreate } from '#shared/api/schemas/escalation-policies';
import { WorkflowRuleCreate } from '#shared/api/schemas/workflows';
import { changeDocumentStatus, createDocument } from '#shared/domain/documents/use-cases';
import { createPolicy } from '#shared/domain/escalation/use-cases';
import { createException, getException } from '#shared/domain/exceptions/use-cases';
import { createConnection } from '#shared/domain/integrations/connections';
import { requestReconciliation } from '#shared/domain/integrations/reconciliation-requests';
import type { OutboxEvent } from '#shared/domain/outbox';
import { fireTimer, sweepTimers } from '#shared/domain/timers/use-cases';
import { fireRules } from '#shared/domain/workflows/runner';
import { createRule } from '#shared/domain/workflows/use-cases';
import type { Clock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { ProviderSandbox } from '#local/provider-sandbox';
import { hubDeps, LEDGERLY_REQUEST, LEDGERLY_SECRET } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { audit, principal, tenant } from '#tests/support/fixtures';
import { type ManualClock, manualClock } from '#tests/support/moved-clock';

/**
 * Escalation beyond the API's own exceptions (docs/api.md, "Escalation policies"): an exception a
 * reconciliation run opens goes under the policy that fits, as one created through the API; and a
 * level that fires is a workflow rule trigger (`exception.escalated`).
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const t = tenant();
const owner = principal('owner-1', { [t.id]: 'owner' });
const MIN = 60_000;
const sandbox = new ProviderSandbox();
const record = { messageId: 'm', attributes: {} } as unknown as SQSRecord;

beforeAll(async () => {
  ({ db, stores } = await freshDb());
  await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
  await sandbox.listen();
});
afterAll(() => sandbox.stop());

const policyFor = (type: string, clock: Clock) =>
  createPolicy(
    { policies: escalationPolicyStore(db), members: memberDirectory(db), clock },
    owner,
    t.id,
    z.parse(EscalationPolicyCreate, {
      name: `Policy for ${type}`,
      priority: 0,
      match: { exception_types: [type] },
      levels: [{ after_minutes: 15, notify: [{ channel: 'email', recipient: 'oncall@example.test' }] }],
    }),
  );
const outbox = async (match: (e: OutboxEvent) => boolean) => {
  const out: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999')) if (match(e)) out.push(e);
  return out;
};
const handled = new Set<string>();
/** Sweeps and fires this subject's due timers once, as the worker would. */
const tick = async (clock: ManualClock, subjectId: string) => {
  await sweepTimers({ timers: timerStore(db), clock });
  const outcomes: string[] = [];
  for (const e of await outbox(
    (e) => e.kind === EVENT_KINDS.timerFired && e.payload.subject_id === subjectId,
  )) {
    if (handled.has(e.event_id)) continue;
    handled.add(e.event_id);
    outcomes.push(`${String(e.payload.kind)}:${await fireTimer(timerFireDeps(db, clock), e)}`);
  }
  return outcomes;
};
const timersOf = async (id: string) =>
  (await timerStore(db).list(t.id, { subject_id: id }, { limit: 10 })).items;

describe('an exception a reconciliation run opens', () => {
  it('goes under the policy that fits, with its first level armed, once however often the run repeats', async () => {
    const clock = manualClock('2040-02-01T08:00:00.000Z');
    const policy = await policyFor('reconciliation.amount_mismatch', clock);
    const deps = { ...hubDeps(db, stores, `${sandbox.url}/providers`, 5000), clock };
    const c = await createConnection(deps, owner, t.id, { ...LEDGERLY_REQUEST, secret: LEDGERLY_SECRET });
    const docs = { documents: stores.documents, zones: stores.zones, clock };
    const payment = await createDocument(docs, owner, t.id, {
      document_type: 'payment',
      number: 'PAY-1002',
      counterparty: 'Globex Ltd',
      currency: 'EUR',
      amount: '240.00',
      issued_on: '2026-01-31',
    });
    await changeDocumentStatus(docs, owner, t.id, payment.id, { status: 'open' });
    const reconcile = async () => {
      const run = await requestReconciliation(deps, owner, t.id, {
        connection_id: c.id,
        rule_set: 'payment_reconciliation',
      });
      const [event] = await outbox(
        (e) => e.kind === EVENT_KINDS.reconciliationRunRequested && e.payload.run_id === run.id,
      );
      // The worker's own dependencies, the escalation policies among them.
      await hubHandlers({ ...deps, policies: escalationPolicyStore(db) })[
        EVENT_KINDS.reconciliationRunRequested
      ]!(event!, record);
      return (await deps.runs.get(t.id, run.id))!;
    };
    const run = await reconcile();
    expect(run).toMatchObject({ status: 'completed', mismatched: 1 });
    const [id] = run.exception_ids;
    const e = await getException({ exceptions: stores.exceptions, clock }, t.id, id!);
    expect(e).toMatchObject({ exception_type: 'reconciliation.amount_mismatch', status: 'open' });
    expect(e.escalation).toEqual({ policy_id: policy.id, level: 1, next_at: '2040-02-01T08:15:00.000Z' });
    expect(await timersOf(id!)).toEqual([
      expect.objectContaining({ kind: 'escalation', level: 1, due_at: '2040-02-01T08:15:00.000Z' }),
    ]);
    const again = await reconcile();
    expect(again.exception_ids).toEqual([id]);
    expect(await timersOf(id!)).toHaveLength(1);
    clock.add(15 * MIN);
    expect(await tick(clock, id!)).toEqual(['escalation:written']);
  });
});

describe('exception.escalated as a rule trigger', () => {
  it('a level that fires runs the rules on it, once through redelivery', async () => {
    const clock = manualClock('2040-03-01T08:00:00.000Z');
    await policyFor('payment.declined', clock);
    const rule = await createRule(
      { rules: stores.workflowRules, zones: stores.zones, clock },
      owner,
      t.id,
      z.parse(WorkflowRuleCreate, {
        name: 'Escalated declines get a task',
        trigger: { event_type: 'exception.escalated' },
        conditions: [{ field: 'exception_type', op: 'eq', value: 'payment.declined' }],
        actions: [{ type: 'create_task', title: 'Escalated: {{title}}' }],
      }),
    );
    const e = await createException(
      { exceptions: stores.exceptions, policies: escalationPolicyStore(db), clock },
      owner,
      t.id,
      {
        exception_type: 'payment.declined',
        subject_type: 'invoice',
        subject_id: 'INV-77',
        title: 'Card declined for INV-77',
        summary: 'The card was declined',
        severity: 'critical',
      },
    );
    clock.add(15 * MIN);
    expect(await tick(clock, e.id)).toEqual(['escalation:written']);
    const [escalated] = await outbox(
      (o) =>
        o.kind === EVENT_KINDS.workflowEventRecorded &&
        o.payload.event_type === 'exception.escalated' &&
        o.payload.entity_id === e.id,
    );
    const run = { ...workflowRunDeps(db), clock, maxAttempts: 3 };
    const [firing] = await fireRules(run, escalated!, 1);
    await fireRules(run, escalated!, 2);
    expect(firing).toMatchObject({ rule_id: rule.id, actions: [{ type: 'create_task', result: 'created' }] });
    const tasks = (await stores.tasks.list(t.id, {}, { limit: 50 })).items.filter(
      (k) => k.source_rule_id === rule.id,
    );
    expect(tasks.map((k) => k.title)).toEqual(['Escalated: Card declined for INV-77']);
  });
});
