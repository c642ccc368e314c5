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

describe('briefing: the whole result', () => {
  const full = data({
    exceptions: [
      exception({
        id: 'e-crit',
        severity: 'critical',
        title: 'Bank feed down',
        detected_at: '2026-03-10T02:00:00.000Z',
      }),
      exception({ id: 'e-ack', status: 'acknowledged', detected_at: '2026-03-08T12:00:00.000Z' }),
      exception({ id: 'e-done', status: 'resolved', severity: 'info' }),
      exception({
        id: 'e-info',
        severity: 'info',
        exception_type: 'sync.lag',
        subject_type: 'connection',
        subject_id: 'c1',
      }),
    ],
    tasks: [
      task({ id: 't-late', due_at: '2026-03-09T00:00:00.000Z' }),
      task({
        id: 't-prog',
        status: 'in_progress',
        assignee_role: 'operator',
        due_at: '2026-03-12T00:00:00.000Z',
        created_at: '2026-03-10T06:00:00.000Z',
      }),
      task({ id: 't-done', status: 'done', due_at: '2026-03-01T00:00:00.000Z' }),
      task({ id: 't-acc', assignee_role: 'accountant' }),
    ],
    documents: [
      doc({ id: 'inv-1', due_on: '2026-03-01', external_refs: { xero: 'X1' } }),
      doc({ id: 'pay-x', document_type: 'payment', amount: '5.00', external_refs: { bank_feed: 'b' } }),
    ],
    notifications: [
      notification({ id: 'n-gated', status: 'gated', review_item_id: 'r1' }),
      notification({
        id: 'n-dead',
        status: 'dead_lettered',
        policy_reasons: ['quiet hours', 'no consent'],
        created_at: '2026-03-09T12:00:00.000Z',
      }),
      notification({ id: 'n-retry', status: 'retrying', channel: 'sms' }),
      notification({ id: 'n-ok', status: 'delivered' }),
    ],
  });
  const overdueInvoice = 'Invoice INV-1 to Globex Ltd is 9 day(s) overdue with 100.00 EUR outstanding.';
  const strayPayment = 'Payment PAY-X of 5.00 EUR from Globex Ltd applies to no invoice.';
  const points = (...counts: number[]) =>
    [
      'open_exceptions',
      'critical_exceptions',
      'overdue_tasks',
      'overdue_invoices',
      'reconciliation_findings',
      'undelivered_notifications',
    ].map((point, i) => ({ point, count: counts[i] }));

  it('for the operator: every item needing attention with its reason, age, action and API', () => {
    const r = briefing({ role: 'operator', include_resolved: true, limit: 20 }, full, NOW, api);
    const rows = [
      [
        'exception',
        'e-crit',
        'Bank feed down',
        'critical',
        'open invoice.overdue on invoice INV-1',
        10,
        'acknowledge_exception',
        '/tenants/acme/exceptions/e-crit',
      ],
      [
        'exception',
        'e-ack',
        'Exception e-ack',
        'warning',
        'acknowledged invoice.overdue on invoice INV-1',
        48,
        'resolve_exception',
        '/tenants/acme/exceptions/e-ack',
      ],
      [
        'exception',
        'e-done',
        'Exception e-done',
        'info',
        'resolved invoice.overdue on invoice INV-1',
        2,
        'review_resolution',
        '/tenants/acme/exceptions/e-done',
      ],
      [
        'exception',
        'e-info',
        'Exception e-info',
        'info',
        'open sync.lag on connection c1',
        2,
        'acknowledge_exception',
        '/tenants/acme/exceptions/e-info',
      ],
      [
        'task',
        't-late',
        'Task t-late',
        'warning',
        'open, due 2026-03-09T00:00:00.000Z',
        24,
        'start_task',
        '/tenants/acme/tasks/t-late',
      ],
      [
        'task',
        't-prog',
        'Task t-prog',
        'info',
        'in_progress, assigned to the operator role',
        6,
        'complete_task',
        '/tenants/acme/tasks/t-prog',
      ],
      [
        'notification',
        'n-dead',
        'email notification dead_lettered',
        'warning',
        'quiet hours; no consent',
        24,
        'check_notification',
        '/tenants/acme/notifications/n-dead',
      ],
      [
        'notification',
        'n-gated',
        'email notification gated',
        'warning',
        'gated on email',
        4,
        'decide_review_item',
        '/tenants/acme/review-items/r1/decision',
      ],
      [
        'notification',
        'n-retry',
        'sms notification retrying',
        'info',
        'retrying on sms',
        4,
        'check_notification',
        '/tenants/acme/notifications/n-retry',
      ],
      [
        'document',
        'inv-1',
        overdueInvoice,
        'warning',
        'overdue_open_invoice',
        0,
        'send_payment_reminder',
        '/tenants/acme/documents/inv-1',
      ],
      [
        'document',
        'pay-x',
        strayPayment,
        'warning',
        'payment_without_invoice',
        0,
        'match_payment_to_invoice',
        '/tenants/acme/documents/pay-x',
      ],
    ] as const;
    expect(r).toEqual({
      role: 'operator',
      risk_level: 'critical',
      highlights: rows.map(([kind, id, title, severity, reason, age_hours, , path]) => ({
        kind,
        id,
        title,
        severity,
        reason,
        age_hours,
        api: path,
      })),
      recommended_actions: rows.map(([kind, id, , , , , action, path]) => ({
        kind,
        id,
        action,
        role_may_act: true,
        hand_to: 'operator',
        api: path,
      })),
      review_points: points(3, 1, 1, 1, 2, 3),
      source_systems: ['bank_feed', 'xero'],
      summary:
        'For the operator: 3 open exceptions (1 critical), 1 overdue task, 1 overdue invoice, 3 undelivered notifications; risk critical.',
      evidence: [{ items_needing_attention: 11, shown: 11 }],
    });
  });

  it('for support: notifications first, cut at the limit, handed to the first role that may act', () => {
    const r = briefing({ role: 'support', include_resolved: false, limit: 3 }, full, NOW, api);
    expect(r.recommended_actions.map((a) => [a.id, a.action, a.role_may_act, a.hand_to])).toEqual([
      ['n-dead', 'check_notification', false, 'operator'],
      ['n-gated', 'decide_review_item', false, 'operator'],
      ['n-retry', 'check_notification', false, 'operator'],
    ]);
    // Not the operator's task assigned to the operator, and not the resolved exception.
    expect(r.evidence).toEqual([{ items_needing_attention: 9, shown: 3 }]);
    expect(r.summary).toBe(
      'For the support: 3 open exceptions (1 critical), 1 overdue task, 1 overdue invoice, 3 undelivered notifications; risk critical.',
    );
  });

  it('a document subject: only the findings on that document, no notifications, the risk of what is left', () => {
    const r = briefing(
      {
        role: 'accountant',
        include_resolved: false,
        limit: 20,
        subject_type: 'document',
        subject_id: 'pay-x',
      },
      full,
      NOW,
      api,
    );
    expect(r.highlights.map((h) => [h.kind, h.id, h.title])).toEqual([['document', 'pay-x', strayPayment]]);
    expect(r.recommended_actions[0]).toMatchObject({ role_may_act: true, hand_to: 'accountant' });
    expect(r.review_points).toEqual(points(0, 0, 0, 0, 1, 0));
    expect(r.risk_level).toBe('attention');
    expect(r.summary).toBe(
      'For the accountant: 0 open exceptions (0 critical), 0 overdue tasks, 0 overdue invoices, 0 undelivered notifications; risk attention.',
    );
    // Another subject type sees no reconciliation findings.
    const bySubject = briefing(
      {
        role: 'accountant',
        include_resolved: false,
        limit: 20,
        subject_type: 'invoice',
        subject_id: 'pay-x',
      },
      full,
      NOW,
      api,
    );
    expect(bySubject.highlights).toEqual([]);
    expect(bySubject.risk_level).toBe('normal');
  });

  it('risk: a critical finding is critical; an overdue task or a dead-lettered notification alone is attention', () => {
    const critical = data({
      documents: [
        doc({ id: 'inv-1', amount: '10.00' }),
        doc({ id: 'p', document_type: 'payment', amount: '20.00', applies_to: 'inv-1' }),
      ],
    });
    expect(briefing(request, critical, NOW, api).risk_level).toBe('critical');
    const late = data({ tasks: [task({ id: 't', due_at: '2026-03-09T00:00:00.000Z' })] });
    expect(briefing(request, late, NOW, api).risk_level).toBe('attention');
    const dead = data({ notifications: [notification({ id: 'n', status: 'dead_lettered' })] });
    expect(briefing(request, dead, NOW, api).risk_level).toBe('attention');
    const retrying = data({ notifications: [notification({ id: 'n', status: 'retrying' })] });
    expect(briefing(request, retrying, NOW, api).risk_level).toBe('normal');
  });
});
