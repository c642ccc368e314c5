import { describe, expect, it } from 'vitest';
import { briefing } from '#shared/domain/previews/briefing';
import { api, data, doc, exception, notification, NOW, task } from './records';

const request = { role: 'operator' as const, include_resolved: false, limit: 20 };

const tenantData = data({
  exceptions: [
    exception({ id: 'e-crit', severity: 'critical', title: 'Bank feed down' }),
    exception({ id: 'e-warn', severity: 'warning' }),
    exception({ id: 'e-done', status: 'resolved' }),
  ],
  tasks: [
    task({ id: 't-late', due_at: '2026-03-09T00:00:00.000Z' }),
    task({ id: 't-mine', assignee_role: 'accountant' }),
    task({ id: 't-other' }),
  ],
  documents: [doc({ id: 'inv-1', due_on: '2026-03-01' })],
  notifications: [
    notification({ id: 'n-gated', status: 'gated', review_item_id: 'r1' }),
    notification({ id: 'n-ok', status: 'delivered' }),
  ],
});

describe('briefing', () => {
  it('puts the role’s own kind of work first: exceptions for the operator, documents for the accountant', () => {
    const op = briefing(request, tenantData, NOW, api);
    expect(op.highlights.map((h) => `${h.kind}:${h.id}`)).toEqual([
      'exception:e-crit',
      'exception:e-warn',
      'task:t-late',
      'notification:n-gated',
      'document:inv-1',
    ]);
    const acc = briefing({ ...request, role: 'accountant' }, tenantData, NOW, api);
    expect(acc.highlights.map((h) => `${h.kind}:${h.id}`)).toEqual([
      'document:inv-1',
      'exception:e-crit',
      'exception:e-warn',
      'task:t-late',
      'task:t-mine',
      'notification:n-gated',
    ]);
    const support = briefing({ ...request, role: 'support' }, tenantData, NOW, api);
    expect(support.highlights[0]).toMatchObject({ kind: 'notification', id: 'n-gated' });
  });

  it('recommends actions and says whether the role may take them or whom to hand them to', () => {
    const acc = briefing({ ...request, role: 'accountant' }, tenantData, NOW, api);
    const crit = acc.recommended_actions.find((a) => a.id === 'e-crit')!;
    expect(crit).toMatchObject({ action: 'acknowledge_exception', role_may_act: false, hand_to: 'operator' });
    const inv = acc.recommended_actions.find((a) => a.id === 'inv-1')!;
    expect(inv).toMatchObject({ action: 'send_payment_reminder', role_may_act: true, hand_to: 'accountant' });
    const n = acc.recommended_actions.find((a) => a.id === 'n-gated')!;
    expect(n.api).toBe('/tenants/acme/review-items/r1/decision');
  });

  it('counts review points and derives the risk level from the data', () => {
    const r = briefing(request, tenantData, NOW, api);
    expect(r.risk_level).toBe('critical');
    expect(Object.fromEntries(r.review_points.map((p) => [p.point, p.count]))).toEqual({
      open_exceptions: 2,
      critical_exceptions: 1,
      overdue_tasks: 1,
      overdue_invoices: 1,
      reconciliation_findings: 1,
      undelivered_notifications: 1,
    });
    expect(briefing(request, data({ exceptions: [exception({ id: 'w' })] }), NOW, api).risk_level).toBe(
      'attention',
    );
    expect(briefing(request, data(), NOW, api).risk_level).toBe('normal');
    expect(
      briefing(request, data({ exceptions: [exception({ id: 'i', severity: 'info' })] }), NOW, api)
        .risk_level,
    ).toBe('normal');
  });

  it('limit cuts the highlights; include_resolved adds resolved exceptions; a subject narrows to it', () => {
    expect(briefing({ ...request, limit: 2 }, tenantData, NOW, api).highlights).toHaveLength(2);
    const withResolved = briefing({ ...request, include_resolved: true }, tenantData, NOW, api);
    expect(withResolved.highlights.map((h) => h.id)).toContain('e-done');
    const one = briefing(
      { ...request, subject_type: 'exception', subject_id: 'e-warn' },
      tenantData,
      NOW,
      api,
    );
    expect(one.highlights.map((h) => h.id)).toEqual(['e-warn']);
  });
});
