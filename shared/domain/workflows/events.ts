import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { RecordedEventType } from '#shared/kernel/event-types';

/**
 * The outbox event of a change that workflow rules may act on (docs/api.md section 9.1),
 * written in the same transaction as the change and its audit event. It carries the entity as
 * the change left it, so rules match what happened rather than what the entity became by the
 * time the worker reads it, as JSON text (`entity_json`), the way the service keeps every
 * free-form object: no attribute-type mapping of the table or the stream can change it. Kept
 * apart from the matcher so the API functions bundle only this.
 */

/** Text longer than this is cut in the snapshot, so one event always fits a queue message. */
export const SNAPSHOT_TEXT_MAX = 8192;

const bounded = (value: unknown): unknown => {
  if (typeof value === 'string')
    return value.length > SNAPSHOT_TEXT_MAX ? value.slice(0, SNAPSHOT_TEXT_MAX) : value;
  if (Array.isArray(value)) return value.map(bounded);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bounded(v)]));
  return value;
};

/**
 * What a change made by a workflow run carries (docs/api.md, "Loops"): the run, and the depth of
 * the runs its event may start (one more than the run's own), so a rule that keeps triggering
 * itself stops at the limit.
 */
export interface RunCause {
  run_id: string;
  depth: number;
}

export function workflowEventRecorded(
  clock: Clock,
  eventType: RecordedEventType,
  entity: { tenant_id: string; id: string },
  cause?: RunCause,
): OutboxEvent {
  const eventId = newId();
  return {
    event_id: eventId,
    kind: EVENT_KINDS.workflowEventRecorded,
    tenant_id: entity.tenant_id,
    idempotency_key: `workflow-event:${entity.tenant_id}:${eventId}`,
    occurred_at: clock.now().toISOString(),
    payload: {
      event_type: eventType,
      entity_id: entity.id,
      entity_json: JSON.stringify(bounded(entity)),
      ...(cause ? { caused_by_run: cause.run_id, depth: String(cause.depth) } : {}),
    },
  };
}
