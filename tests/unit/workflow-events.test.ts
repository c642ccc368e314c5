import { describe, expect, it } from 'vitest';
import { SNAPSHOT_TEXT_MAX, workflowEventRecorded } from '#shared/domain/workflows/events';
import { derivedId, newId } from '#shared/kernel/ids';
import { EVENT_KINDS, QUEUES, queueForEvent } from '#shared/kernel/names';

const clock = { now: () => new Date('2026-01-31T10:00:00.000Z') };

describe('the outbox event of a change rules act on', () => {
  it('carries the event type and the entity as the change left it, as JSON text, for the internal queue', () => {
    const entity = { id: 'e1', tenant_id: 'acme', severity: 'critical', tags: [], refs: {}, amount: '1.00' };
    const e = workflowEventRecorded(clock, 'exception.created', entity);
    expect(e).toMatchObject({
      kind: EVENT_KINDS.workflowEventRecorded,
      tenant_id: 'acme',
      occurred_at: '2026-01-31T10:00:00.000Z',
      idempotency_key: `workflow-event:acme:${e.event_id}`,
      payload: { event_type: 'exception.created', entity_id: 'e1' },
    });
    expect(JSON.parse(e.payload.entity_json as string)).toEqual(entity);
    expect(queueForEvent(e.kind, e.payload)).toBe(QUEUES.internal);
  });

  it('cuts very long text, so one event always fits a queue message', () => {
    const long = 'x'.repeat(SNAPSHOT_TEXT_MAX + 10);
    const exception = { id: 'e1', tenant_id: 'acme', evidence_json: long, lines: [{ description: long }] };
    const e = workflowEventRecorded(clock, 'exception.created', exception);
    const entity = JSON.parse(e.payload.entity_json as string);
    expect(entity.evidence_json).toHaveLength(SNAPSHOT_TEXT_MAX);
    expect(entity.lines[0].description).toHaveLength(SNAPSHOT_TEXT_MAX);
  });
});

describe('derivedId', () => {
  const at = '2026-01-31T10:00:00.000Z';

  it('is the same for the same time and parts, and differs when any part does', () => {
    expect(derivedId(at, 'rule', 'event', '0')).toBe(derivedId(at, 'rule', 'event', '0'));
    expect(derivedId(at, 'rule', 'event', '1')).not.toBe(derivedId(at, 'rule', 'event', '0'));
    expect(derivedId(at, 'rule', 'event1', '0')).not.toBe(derivedId(at, 'rule', 'event', '10'));
  });

  it('is a UUIDv7 carrying the time, so it sorts with the ids of that moment', () => {
    const id = derivedId(at, 'a');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.parse(at));
    expect(derivedId('2026-01-31T10:00:00.001Z', 'a') > id).toBe(true);
    expect(newId() > id).toBe(true);
  });
});
