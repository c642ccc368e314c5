import { describe, expect, it } from 'vitest';
import type { Timer } from '#shared/domain/timers/ports';
import { type RezoneDeps, rezoneTimers } from '#shared/domain/timers/rezone';

/**
 * A tenant's time-zone change over in-memory ports: which timers move (a scheduled rule without
 * its own zone, an open invoice's end of day), which stay, and that every page of the tenant's
 * timers is read. The table-backed path is tests/connected/tenant-rezone.test.ts.
 */

// A Wednesday in winter: Berlin is UTC+1; the rules were computed in UTC.
const NOW = '2027-01-06T12:00:00.000Z';
const ruleTimer = (id: string, due = '2027-01-11T08:00:00.000Z'): Timer => ({
  id: `rule_schedule:${id}`,
  tenant_id: 'acme',
  kind: 'rule_schedule',
  subject_type: 'workflow_rule',
  subject_id: id,
  due_at: due,
  rule_id: id,
});
const docTimer = (id: string, due = '2027-01-21T00:00:00.000Z'): Timer => ({
  id: `document_due:${id}`,
  tenant_id: 'acme',
  kind: 'document_due',
  subject_type: 'document',
  subject_id: id,
  due_at: due,
});
const rule = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  tenant_id: 'acme',
  name: id,
  trigger: { schedule: { cron: '0 8 * * 1' } },
  enabled: true,
  next_run_at: '2027-01-11T08:00:00.000Z',
  ...over,
});
const invoice = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  tenant_id: 'acme',
  document_type: 'invoice',
  status: 'open',
  due_on: '2027-01-20',
  ...over,
});

const setUp = (timers: Timer[], rules: Record<string, unknown>, docs: Record<string, unknown>) => {
  const reads: string[] = [];
  const moves: string[] = [];
  const deps = {
    zones: { timeZoneOf: async () => 'Europe/Berlin' },
    clock: { now: () => new Date(NOW) },
    timers: {
      async list(tenantId: string, filter: { kind?: string }, page: { limit?: number; cursor?: string }) {
        const of = timers.filter((t) => t.tenant_id === tenantId && t.kind === filter.kind);
        const from = Number(page.cursor ?? 0);
        const to = from + (page.limit ?? 1000);
        reads.push(`${filter.kind} ${from}-${Math.min(to, of.length)}`);
        return { items: of.slice(from, to), next_cursor: to < of.length ? String(to) : null };
      },
    },
    rules: { get: async (_: string, id: string) => rules[id] },
    documents: { get: async (_: string, id: string) => docs[id] },
    rezone: {
      async moveRule(r: { id: string; was: string }, next: Timer | null) {
        moves.push(`rule ${r.id} ${r.was} -> ${next?.due_at}`);
        return true;
      },
      async moveTimer(t: Timer, was: string) {
        moves.push(`timer ${t.id} ${was} -> ${t.due_at}`);
        return true;
      },
    },
  } as unknown as RezoneDeps;
  return { deps, reads, moves };
};

describe('a time-zone change', () => {
  it('moves a scheduled rule in the tenant zone and an open invoice, reading every page of both kinds', async () => {
    const invoices = Array.from({ length: 150 }, (_, i) => `d${i}`);
    const { deps, reads, moves } = setUp(
      [ruleTimer('r1'), ...invoices.map((d) => docTimer(d))],
      { r1: rule('r1') },
      Object.fromEntries(invoices.map((d) => [d, invoice(d)])),
    );
    expect(await rezoneTimers(deps, 'acme')).toEqual({ moved: 151 });
    expect(reads).toEqual(['rule_schedule 0-1', 'document_due 0-100', 'document_due 100-150']);
    expect(moves[0]).toBe('rule r1 2027-01-11T08:00:00.000Z -> 2027-01-11T07:00:00.000Z');
    expect(moves[1]).toBe('timer document_due:d0 2027-01-21T00:00:00.000Z -> 2027-01-20T23:00:00.000Z');
    expect(moves).toHaveLength(151);
  });

  it.each([
    ['the rule was deleted', undefined],
    ['the rule is disabled', rule('r1', { enabled: false })],
    ['the rule is triggered by an event', rule('r1', { trigger: { event_type: 'task.created' } })],
    [
      'the rule has its own zone',
      rule('r1', { trigger: { schedule: { cron: '0 8 * * 1', timezone: 'UTC' } } }),
    ],
    ['the rule moved on meanwhile', rule('r1', { next_run_at: '2027-01-18T08:00:00.000Z' })],
  ])('leaves a rule timer when %s', async (_, found) => {
    const { deps, moves } = setUp([ruleTimer('r1')], { r1: found }, {});
    expect(await rezoneTimers(deps, 'acme')).toEqual({ moved: 0 });
    expect(moves).toEqual([]);
  });

  it('leaves a rule already at its time in the new zone', async () => {
    const due = '2027-01-11T07:00:00.000Z';
    const { deps, moves } = setUp([ruleTimer('r1', due)], { r1: rule('r1', { next_run_at: due }) }, {});
    expect(await rezoneTimers(deps, 'acme')).toEqual({ moved: 0 });
    expect(moves).toEqual([]);
  });

  it.each([
    ['the invoice was deleted', undefined, undefined],
    ['the invoice is paid', invoice('d1', { status: 'paid' }), undefined],
    ['the timer is at the end of the day in the new zone already', invoice('d1'), '2027-01-20T23:00:00.000Z'],
  ])('leaves an invoice timer when %s', async (_, found, due) => {
    const { deps, moves } = setUp([docTimer('d1', due)], {}, { d1: found });
    expect(await rezoneTimers(deps, 'acme')).toEqual({ moved: 0 });
    expect(moves).toEqual([]);
  });

  it('counts only the moves the store made (a firing or a change meanwhile wins)', async () => {
    const { deps } = setUp([ruleTimer('r1'), docTimer('d1')], { r1: rule('r1') }, { d1: invoice('d1') });
    deps.rezone.moveRule = async () => false;
    expect(await rezoneTimers(deps, 'acme')).toEqual({ moved: 1 });
  });
});
