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
