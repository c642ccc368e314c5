import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import { documentDueTimer } from '#shared/domain/timers/arming';
import { fireDocumentDue } from '#shared/domain/timers/document-due';
import type { Timer } from '#shared/domain/timers/ports';
import { fireRuleSchedule, type RuleScheduleDeps } from '#shared/domain/timers/rule-schedule';
import { EVENT_KINDS } from '#shared/kernel/names';

/**
 * The `rule_schedule` and `document_due` firings over in-memory ports: what the occurrence
 * records (audit event, the event the runner acts on, the next timer), and that a subject that
 * moved on is stale without asking the store to write (its condition is the second line). The
 * table-backed paths are in tests/connected/rule-schedule.test.ts and document-due.test.ts.
 */

// Monday 2031-03-03, 08:00 in Berlin (UTC+1 until 2031-03-30).
const DUE = '2031-03-03T07:00:00.000Z';
const at = (iso: string) => ({ now: () => new Date(iso) });

const ruleTimer: Timer = {
  id: 'rule_schedule:r1',
  tenant_id: 'acme',
  kind: 'rule_schedule',
  subject_type: 'workflow_rule',
  subject_id: 'r1',
  due_at: DUE,
};
const rule = (over: Record<string, unknown> = {}) => ({
  id: 'r1',
  tenant_id: 'acme',
  name: 'Weekly check',
  trigger: { schedule: { cron: '0 8 * * 1' } },
  enabled: true,
  next_run_at: DUE,
  ...over,
});
type Run = {
  rule: { tenant_id: string; id: string; due: string; next: Timer | null };
  audit: AuditEvent;
  event: OutboxEvent;
};
const ruleDeps = (found: unknown, now: string) => {
  const runs: Run[] = [];
  const deps = {
    rules: { get: async () => found },
    zones: { timeZoneOf: async () => 'Europe/Berlin' },
    clock: at(now),
    ruleSchedule: {
      async recordRun(r: Run['rule'], audit: AuditEvent, event: OutboxEvent) {
        runs.push({ rule: r, audit, event });
        return 'written' as const;
      },
    },
  } as unknown as RuleScheduleDeps;
  return { deps, runs };
};

describe('a rule_schedule firing', () => {
  it('records the run on time: audit event, the event for the runner, the next timer a week on', async () => {
    const now = '2031-03-03T07:00:04.000Z';
    const { deps, runs } = ruleDeps(rule(), now);
    expect(await fireRuleSchedule(deps, ruleTimer)).toBe('written');
    const [{ rule: r, audit, event }] = runs as [Run];
    const next = '2031-03-10T07:00:00.000Z';
    expect(r).toEqual({
      tenant_id: 'acme',
      id: 'r1',
      due: DUE,
      next: { ...ruleTimer, rule_id: 'r1', due_at: next },
    });
    expect(audit).toMatchObject({
      tenant_id: 'acme',
      event_type: 'workflow_rule.scheduled',
      actor_id: null,
      entity_type: 'workflow_rule',
      entity_id: 'r1',
      summary: `Weekly check scheduled for ${DUE}`,
    });
    expect(JSON.parse(audit.metadata_json!)).toEqual({
      scheduled_for: DUE,
      missed: false,
      next_run_at: next,
    });
    expect(event).toMatchObject({
      kind: EVENT_KINDS.workflowEventRecorded,
      tenant_id: 'acme',
      idempotency_key: `workflow-event:acme:${event.event_id}`,
      occurred_at: now,
    });
    expect(event.payload).toMatchObject({ event_type: 'schedule:r1', entity_id: 'r1' });
    expect(JSON.parse(event.payload.entity_json as string)).toEqual({
      rule_id: 'r1',
      scheduled_for: DUE,
      fired_at: now,
    });
    // A redelivered firing carries the same audit id, so the store writes the occurrence once.
    await fireRuleSchedule(deps, ruleTimer);
    expect(runs[1]!.audit.id).toBe(audit.id);
  });

  it('fires a schedule missed for weeks once, for its latest occurrence, marked missed', async () => {
    const { deps, runs } = ruleDeps(rule(), '2031-03-24T09:00:00.000Z');
    expect(await fireRuleSchedule(deps, ruleTimer)).toBe('written');
    const [{ rule: r, audit, event }] = runs as [Run];
    const latest = '2031-03-24T07:00:00.000Z';
    // Summer time in Berlin from 2031-03-30: 08:00 is 06:00 UTC.
    expect(r.next?.due_at).toBe('2031-03-31T06:00:00.000Z');
    expect(audit.summary).toBe(`Weekly check scheduled for ${latest}`);
    expect(JSON.parse(audit.metadata_json!)).toEqual({
      scheduled_for: latest,
      missed: true,
      next_run_at: '2031-03-31T06:00:00.000Z',
    });
    expect(JSON.parse(event.payload.entity_json as string)).toMatchObject({ scheduled_for: latest });
  });

  it("reads the rule's own time zone before the tenant's", async () => {
    const own = rule({
      trigger: { schedule: { cron: '0 8 * * 1', timezone: 'America/New_York' } },
      next_run_at: '2031-03-03T13:00:00.000Z',
    });
    const { deps, runs } = ruleDeps(own, '2031-03-03T13:00:01.000Z');
    expect(await fireRuleSchedule(deps, { ...ruleTimer, due_at: '2031-03-03T13:00:00.000Z' })).toBe(
      'written',
    );
    // New York is on summer time from 2031-03-09.
    expect(runs[0]!.rule.next?.due_at).toBe('2031-03-10T12:00:00.000Z');
  });

  it.each([
    ['the rule was deleted', undefined],
    ['the rule is disabled', rule({ enabled: false })],
    ['the rule is triggered by an event now', rule({ trigger: { event_type: 'task.created' } })],
    ['the rule was re-scheduled', rule({ next_run_at: '2031-03-10T07:00:00.000Z' })],
  ])('is stale, asking the store for nothing, when %s', async (_, found) => {
    const { deps, runs } = ruleDeps(found, '2031-03-03T07:00:04.000Z');
    expect(await fireRuleSchedule(deps, ruleTimer)).toBe('stale');
    expect(runs).toEqual([]);
  });
});

const docTimer: Timer = {
  id: 'document_due:d1',
  tenant_id: 'acme',
  kind: 'document_due',
  subject_type: 'document',
  subject_id: 'd1',
  due_at: '2031-03-02T23:00:00.000Z',
};
const invoice = (over: Record<string, unknown> = {}) => ({
  id: 'd1',
  tenant_id: 'acme',
  document_type: 'invoice',
  number: 'INV-7',
  status: 'open',
  due_on: '2031-03-02',
  ...over,
});
type Overdue = { doc: unknown; audit: AuditEvent; event: OutboxEvent };
const docDeps = (found: unknown) => {
  const written: Overdue[] = [];
  const deps = {
    documents: { get: async () => found },
    clock: at('2031-03-02T23:00:03.000Z'),
    documentDue: {
      async recordOverdue(doc: unknown, audit: AuditEvent, event: OutboxEvent) {
        written.push({ doc, audit, event });
        return 'written' as const;
      },
    },
  } as unknown as Parameters<typeof fireDocumentDue>[0];
  return { deps, written };
};

describe('a document_due firing', () => {
  it('records the overdue invoice: audit event under an id of its due date, and the event rules act on', async () => {
    const { deps, written } = docDeps(invoice());
    expect(await fireDocumentDue(deps, docTimer)).toBe('written');
    await fireDocumentDue(deps, docTimer);
    const [{ doc, audit, event }, again] = written as [Overdue, Overdue];
    expect(doc).toEqual({ tenant_id: 'acme', id: 'd1', due_on: '2031-03-02' });
    expect(audit).toMatchObject({
      tenant_id: 'acme',
      event_type: 'document.overdue',
      actor_id: null,
      entity_type: 'document',
      entity_id: 'd1',
      summary: 'invoice INV-7 due 2031-03-02',
    });
    expect(JSON.parse(audit.metadata_json!)).toEqual({ due_on: '2031-03-02', due_at: docTimer.due_at });
    expect(again.audit.id).toBe(audit.id);
    expect(event).toMatchObject({ kind: EVENT_KINDS.workflowEventRecorded, tenant_id: 'acme' });
    expect(event.payload).toMatchObject({ event_type: 'document.overdue', entity_id: 'd1' });
  });

  it.each([
    ['the invoice was deleted', undefined],
    ['the invoice is paid', invoice({ status: 'paid' })],
    ['the invoice was voided', invoice({ status: 'void' })],
    ['the invoice has no due date any more', invoice({ due_on: null })],
  ])('is stale, asking the store for nothing, when %s', async (_, found) => {
    const { deps, written } = docDeps(found);
    expect(await fireDocumentDue(deps, docTimer)).toBe('stale');
    expect(written).toEqual([]);
  });
});

describe("an invoice's document_due timer as it stands", () => {
  it('is armed at the end of due_on in the zone for an open invoice, and is none for any other', () => {
    expect(documentDueTimer(invoice() as never, 'Europe/Berlin')).toEqual(docTimer);
    for (const other of [
      invoice({ status: 'paid' }),
      invoice({ status: 'void' }),
      invoice({ status: 'draft' }),
      invoice({ document_type: 'credit_note' }),
    ])
      expect(documentDueTimer(other as never, 'Europe/Berlin')).toBeNull();
  });
});
