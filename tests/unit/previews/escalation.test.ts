import { describe, expect, it } from 'vitest';
import { escalation, queueOf } from '#shared/domain/previews/escalation';
import { api, exception, NOW } from './records';

const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
const request = { policy: 'exception_triage' as const, include_resolved: false, limit: 20 };

describe('exception_triage', () => {
  it('queues by severity and age against the response time', () => {
    const q = (over: Parameters<typeof exception>[0]) => queueOf(exception(over), NOW);
    expect(q({ id: 'a', severity: 'critical', detected_at: hoursAgo(1) })).toEqual({
      queue: 'immediate',
      breached: false,
      age: 1,
    });
    expect(q({ id: 'b', severity: 'critical', status: 'acknowledged', detected_at: hoursAgo(2) }).queue).toBe(
      'operations',
    );
    expect(q({ id: 'c', severity: 'critical', status: 'acknowledged', detected_at: hoursAgo(5) })).toEqual({
      queue: 'immediate',
      breached: true,
      age: 5,
    });
    expect(q({ id: 'd', severity: 'warning', detected_at: hoursAgo(47) }).queue).toBe('operations');
    expect(q({ id: 'e', severity: 'warning', detected_at: hoursAgo(49) })).toEqual({
      queue: 'escalated',
      breached: true,
      age: 49,
    });
    expect(q({ id: 'f', severity: 'info', detected_at: hoursAgo(100) }).queue).toBe('backlog');
    expect(q({ id: 'g', severity: 'info', detected_at: hoursAgo(200) }).queue).toBe('escalated');
    expect(q({ id: 'h', status: 'resolved', detected_at: hoursAgo(500) })).toEqual({
      queue: 'closed',
      breached: false,
      age: 500,
    });
  });

  it('orders items by queue then age, counts each queue, leaves resolved out unless asked', () => {
    const exceptions = [
      exception({ id: 'w-new', severity: 'warning', detected_at: hoursAgo(3) }),
      exception({ id: 'w-old', severity: 'warning', detected_at: hoursAgo(60) }),
      exception({ id: 'c', severity: 'critical', detected_at: hoursAgo(1) }),
      exception({ id: 'done', status: 'resolved', detected_at: hoursAgo(90) }),
    ];
    const r = escalation(request, exceptions, NOW, api);
    expect(r.escalation_items.map((i) => [i.exception_id, i.queue])).toEqual([
      ['c', 'immediate'],
      ['w-old', 'escalated'],
      ['w-new', 'operations'],
    ]);
    expect(r.queues.map((q) => [q.queue, q.count])).toEqual([
      ['immediate', 1],
      ['escalated', 1],
      ['operations', 1],
      ['backlog', 0],
    ]);
    expect(r.risk_level).toBe('critical');
    expect(r.suggested_actions[0]).toMatchObject({
      exception_id: 'c',
      action: 'acknowledge_and_notify',
      role: 'owner',
      api: '/tenants/acme/exceptions/c/status',
    });
    const all = escalation({ ...request, include_resolved: true }, exceptions, NOW, api);
    expect(all.queues.at(-1)).toMatchObject({ queue: 'closed', count: 1, exception_ids: ['done'] });
  });

  it('risk: attention for warnings only, normal for info within time; limit and subject narrow', () => {
    expect(escalation(request, [exception({ id: 'w' })], NOW, api).risk_level).toBe('attention');
    expect(escalation(request, [exception({ id: 'i', severity: 'info' })], NOW, api).risk_level).toBe(
      'normal',
    );
    const many = [1, 2, 3].map((n) => exception({ id: `e${n}`, subject_id: `INV-${n}` }));
    expect(escalation({ ...request, limit: 2 }, many, NOW, api).escalation_items).toHaveLength(2);
    expect(
      escalation(
        { ...request, subject_type: 'invoice', subject_id: 'INV-2' },
        many,
        NOW,
        api,
      ).escalation_items.map((i) => i.exception_id),
    ).toEqual(['e2']);
  });
});

describe('exception_triage: the whole result', () => {
  const exceptions = [
    exception({ id: 'c-open', severity: 'critical', detected_at: hoursAgo(1), title: 'C open' }),
    exception({
      id: 'c-ack-late',
      severity: 'critical',
      status: 'acknowledged',
      detected_at: hoursAgo(6),
      title: 'C ack late',
    }),
    exception({ id: 'w-late', severity: 'warning', detected_at: hoursAgo(60), title: 'W late' }),
    exception({
      id: 'w-ack',
      severity: 'warning',
      status: 'acknowledged',
      detected_at: hoursAgo(3),
      title: 'W ack',
    }),
    exception({ id: 'i-new', severity: 'info', detected_at: hoursAgo(5), title: 'I new' }),
    exception({ id: 'done', status: 'resolved', detected_at: hoursAgo(90), title: 'Done' }),
  ];
  const status = (id: string) => `/tenants/acme/exceptions/${id}/status`;

  it('queues with counts and oldest age, items with their response time, actions and why, summary', () => {
    const r = escalation({ ...request, include_resolved: true }, exceptions, NOW, api);
    expect(r).toEqual({
      policy: 'exception_triage',
      risk_level: 'critical',
      queues: [
        [
          'immediate',
          'owner',
          'critical and open, or critical past its response time',
          6,
          ['c-ack-late', 'c-open'],
        ],
        ['escalated', 'manager', 'past its response time', 60, ['w-late']],
        ['operations', 'operator', 'within its response time', 3, ['w-ack']],
        ['backlog', 'operator', 'informational, within its response time', 5, ['i-new']],
        ['closed', 'support', 'resolved (shown on request)', 90, ['done']],
      ].map(([queue, target_role, description, oldest_age_hours, exception_ids]) => ({
        queue,
        target_role,
        description,
        count: (exception_ids as string[]).length,
        oldest_age_hours,
        exception_ids,
      })),
      escalation_items: [
        ['c-ack-late', 'C ack late', 'critical', 'acknowledged', 6, 4, true, 'immediate', 'owner'],
        ['c-open', 'C open', 'critical', 'open', 1, 4, false, 'immediate', 'owner'],
        ['w-late', 'W late', 'warning', 'open', 60, 48, true, 'escalated', 'manager'],
        ['w-ack', 'W ack', 'warning', 'acknowledged', 3, 48, false, 'operations', 'operator'],
        ['i-new', 'I new', 'info', 'open', 5, 168, false, 'backlog', 'operator'],
        ['done', 'Done', 'warning', 'resolved', 90, 48, false, 'closed', 'support'],
      ].map(
        ([exception_id, title, severity, st, age_hours, response_hours, breached, queue, target_role]) => ({
          exception_id,
          exception_type: 'invoice.overdue',
          title,
          severity,
          status: st,
          subject_type: 'invoice',
          subject_id: 'INV-1',
          age_hours,
          response_hours,
          breached,
          queue,
          target_role,
        }),
      ),
      review_points: [
        { point: 'past_response_time', count: 2 },
        { point: 'critical_open', count: 1 },
        { point: 'acknowledged_not_resolved', count: 2 },
      ],
      suggested_actions: [
        ['c-ack-late', 'resolve', 'owner', 'acknowledged, 6 h since detection, past its response time'],
        ['c-open', 'acknowledge_and_notify', 'owner', 'open 1 h, critical'],
        [
          'w-late',
          'acknowledge_and_notify',
          'manager',
          'open 60 h, past the 48 h response time of a warning exception',
        ],
        ['w-ack', 'resolve', 'operator', 'acknowledged, 3 h since detection'],
        ['i-new', 'acknowledge', 'operator', 'open 5 h, info'],
      ].map(([exception_id, action, role, why]) => ({
        exception_id,
        action,
        role,
        why,
        api: status(exception_id!),
      })),
      summary:
        '6 exceptions triaged: 2 immediate, 1 escalated, 1 operations, 1 backlog, 1 closed; 2 past their response time.',
    });
  });

  it('an empty queue has no oldest age; nothing to triage says so; an acknowledged warning alone is attention', () => {
    const r = escalation(request, [exception({ id: 'w', status: 'acknowledged' })], NOW, api);
    expect(r.risk_level).toBe('attention');
    expect(r.queues.map((q) => [q.queue, q.oldest_age_hours])).toEqual([
      ['immediate', null],
      ['escalated', null],
      ['operations', 2],
      ['backlog', null],
    ]);
    expect(r.summary).toBe(
      '1 exception triaged: 0 immediate, 0 escalated, 1 operations, 0 backlog, 0 closed; 0 past their response time.',
    );
    const none = escalation(request, [], NOW, api);
    expect(none.summary).toBe('No unresolved exceptions to triage.');
    expect(none.risk_level).toBe('normal');
    // An info exception past its time is escalated, so it draws attention.
    expect(
      escalation(request, [exception({ id: 'i', severity: 'info', detected_at: hoursAgo(200) })], NOW, api)
        .risk_level,
    ).toBe('attention');
  });

  it('the response time is a bound: exactly at it is not yet breached', () => {
    expect(queueOf(exception({ id: 'a', severity: 'warning', detected_at: hoursAgo(48) }), NOW)).toEqual({
      queue: 'operations',
      breached: false,
      age: 48,
    });
    expect(
      queueOf(
        exception({ id: 'b', severity: 'critical', status: 'acknowledged', detected_at: hoursAgo(4) }),
        NOW,
      ).queue,
    ).toBe('operations');
  });
});
