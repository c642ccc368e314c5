import { describe, expect, it } from 'vitest';
import { exportRequested } from '#shared/domain/accounting/events';
import type { AccountingExport } from '#shared/domain/accounting/ports';
import type { Notification } from '#shared/domain/notifications/ports';
import { deliveryRequested } from '#shared/domain/notifications/use-cases';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { EVENTS, eventRow, kindsOn, payloadProblem } from '#shared/kernel/events';
import { EVENT_KINDS, QUEUES, queueForEvent } from '#shared/kernel/names';

/**
 * The event manifest (shared/kernel/events.ts): the names, the queues the relay and the sweeper
 * route by, and the payloads the workers accept, all read from one row per kind.
 */

const clock = { now: () => new Date('2026-01-31T10:00:00.000Z') };

describe('the event manifest', () => {
  it('names each kind once, with one row per name', () => {
    const kinds = Object.values(EVENT_KINDS);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(Object.keys(EVENTS)).toEqual(Object.keys(EVENT_KINDS));
    for (const [key, kind] of Object.entries(EVENT_KINDS))
      expect(eventRow(kind)).toBe(EVENTS[key as keyof typeof EVENTS]);
    expect(eventRow('no.such.kind')).toBeUndefined();
  });

  it('routes each kind to its queue; a notification by its channel; an unknown kind to the internal queue', () => {
    const notification = EVENT_KINDS.notificationDeliveryRequested;
    expect(queueForEvent(notification, { notification_id: 'n', channel: 'in_app' })).toBe(QUEUES.internal);
    for (const channel of ['telegram', 'email', 'sms', 'webhook'])
      expect(queueForEvent(notification, { notification_id: 'n', channel })).toBe(QUEUES.external);
    expect(queueForEvent(EVENT_KINDS.accountingExportRequested, {})).toBe(QUEUES.external);
    for (const kind of [
      EVENT_KINDS.workflowEventRecorded,
      EVENT_KINDS.workflowActionRetryRequested,
      EVENT_KINDS.integrationDiagnosticsRequested,
      EVENT_KINDS.reconciliationRunRequested,
      'no.such.kind',
    ])
      expect(queueForEvent(kind, {})).toBe(QUEUES.internal);
    expect(kindsOn('external').sort()).toEqual(
      [
        EVENT_KINDS.notificationDeliveryRequested,
        EVENT_KINDS.accountingExportRequested,
        EVENT_KINDS.webhookDeliveryRequested,
      ].sort(),
    );
    expect(kindsOn('internal')).toContain(EVENT_KINDS.notificationDeliveryRequested);
    expect(kindsOn('internal')).not.toContain(EVENT_KINDS.accountingExportRequested);
  });

  it('accepts the payloads the producers write and refuses one missing a declared field', () => {
    const written = [
      deliveryRequested(clock, {
        id: 'n1',
        tenant_id: 't',
        channel: 'email',
        idempotency_key: 'k',
      } as Notification),
      workflowEventRecorded(clock, 'task.status_changed', { id: 'x1', tenant_id: 't' }),
      exportRequested(clock, { id: 'x1', tenant_id: 't' } as AccountingExport),
    ];
    for (const e of written)
      expect([e.kind, payloadProblem(eventRow(e.kind)!, e.payload)]).toEqual([e.kind, null]);
    const row = eventRow(EVENT_KINDS.accountingExportRequested)!;
    expect(payloadProblem(row, { export_id: 7 })).toBe('payload field export_id is not a string');
    expect(payloadProblem(row, {})).toBe('payload field export_id is not a string');
    expect(payloadProblem(row, [])).toBe('payload is not an object');
    expect(payloadProblem(row, { export_id: 'x', extra: 1 })).toBeNull();
  });
});
