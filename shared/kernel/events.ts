/**
 * The event manifest: every outbox event kind, the twin of the operations manifest
 * (shared/api/manifest.ts). A kind is one key in the two tables below: `EVENT_KINDS` names it on
 * the wire, and its row in `EVENTS` says which queue carries it (`queue`, and `queueWhen` for the
 * one kind a payload field re-routes) and what its payload holds (`payload`: field name -> type;
 * every payload is flat JSON of ids and names). The type makes a name without a row, or a row
 * without a name, a compile error.
 *
 * Two tables, not one, for the bundles: the API functions write events and bundle only the names
 * (an unused `EVENTS` is dropped); the relay and the sweeper route by the rows and bundle no
 * schema library and no handler. Each worker binds a handler to every kind its queue carries
 * (functions/workers/internal.ts, external.ts); the type `KindsOn` makes a missing binding a
 * compile error and the queue worker refuses to start without one.
 *
 * Adding a kind: its name and its row here, its handler, and the handler's line in the worker of
 * its queue; producers write `EVENT_KINDS.<key>`.
 *
 *   EVENT_KINDS:  timerFired: 'timer.fired',
 *   EVENTS:       timerFired: { queue: 'internal', payload: { timer_id: 'string' } },
 */

/** Which of the two queues (QUEUES in ./names.ts) carries a kind. */
export type QueueKey = 'internal' | 'external';

/** A payload field's type; every field the service writes today is a string. */
export type PayloadFieldType = 'string';

export interface EventRow {
  queue: QueueKey;
  /** A payload field whose value sends the event to another queue. */
  queueWhen?: { field: string; equals: string; queue: QueueKey };
  payload: Record<string, PayloadFieldType>;
}

/** The `kind` of each event's outbox envelope and SQS message attribute, by its key in `EVENTS`. */
export const EVENT_KINDS = {
  notificationDeliveryRequested: 'notification.delivery.requested',
  workflowEventRecorded: 'workflow.event_recorded',
  workflowRunResumed: 'workflow.run_resumed',
  workflowRuleReplayRequested: 'workflow.rule_replay_requested',
  workflowActionRetryRequested: 'workflow.action_retry_requested',
  integrationDiagnosticsRequested: 'integration.diagnostics_requested',
  reconciliationRunRequested: 'reconciliation.run_requested',
  accountingExportRequested: 'accounting.export_requested',
  timerFired: 'timer.fired',
  tenantTimezoneChanged: 'tenant.timezone_changed',
  webhookDeliveryRequested: 'webhook.delivery_requested',
} as const;

export const EVENTS = {
  /** A notification to deliver: `in_app` stays inside, every other channel leaves the system. */
  notificationDeliveryRequested: {
    queue: 'external',
    queueWhen: { field: 'channel', equals: 'in_app', queue: 'internal' },
    payload: { notification_id: 'string', channel: 'string' },
  },
  /** A change a workflow rule may act on (docs/api.md section 9.1), with its entity's snapshot. */
  workflowEventRecorded: {
    queue: 'internal',
    payload: { event_type: 'string', entity_id: 'string', entity_json: 'string' },
  },
  /** A workflow run whose delay ended (its `rule_delay` timer fired), or that is replayed: its remaining actions run. */
  workflowRunResumed: {
    queue: 'internal',
    payload: { run_id: 'string' },
  },
  /** A replay of a rule's failed runs over a period: the worker replays each (docs/api.md, "Replay"). */
  workflowRuleReplayRequested: {
    queue: 'internal',
    payload: { replay_id: 'string' },
  },
  /** A review decision to run a failed workflow rule action once more. */
  workflowActionRetryRequested: {
    queue: 'internal',
    payload: { review_item_id: 'string' },
  },
  /** A review decision to run a connection's diagnostics again (docs/api.md section 9.3). */
  integrationDiagnosticsRequested: {
    queue: 'internal',
    payload: { connection_id: 'string' },
  },
  /** A reconciliation run to do (docs/api.md section 9.3). */
  reconciliationRunRequested: {
    queue: 'internal',
    payload: { run_id: 'string' },
  },
  /** An accounting export to send (docs/api.md section 9.2): it leaves the system. */
  accountingExportRequested: {
    queue: 'external',
    payload: { export_id: 'string' },
  },
  /** A due timer claimed by the timer sweeper (docs/api.md, "Time"): the timer as it was claimed. */
  timerFired: {
    queue: 'internal',
    payload: { id: 'string', kind: 'string', subject_type: 'string', subject_id: 'string', due_at: 'string' },
  },
  /** A tenant's new time zone: the timers that depend on it are moved (docs/api.md, "Tenant time zone"). */
  tenantTimezoneChanged: {
    queue: 'internal',
    payload: { timezone: 'string' },
  },
  /** A webhook message's next attempt (docs/api.md, "Event subscriptions"): it leaves the system. */
  webhookDeliveryRequested: {
    queue: 'external',
    payload: { message_id: 'string', endpoint_id: 'string' },
  },
} as const satisfies Record<keyof typeof EVENT_KINDS, EventRow>;

type Kinds = typeof EVENT_KINDS;
export type EventKind = Kinds[keyof Kinds];
type KeyOf<K extends EventKind> = { [Key in keyof Kinds]: Kinds[Key] extends K ? Key : never }[keyof Kinds];
type RowOf<K extends EventKind> = (typeof EVENTS)[KeyOf<K>];

// Built on first use, so that a bundle that only names kinds drops the rows.
let rows: ReadonlyMap<string, EventRow> | undefined;
const rowsByKind = () =>
  (rows ??= new Map(
    (Object.keys(EVENT_KINDS) as (keyof Kinds)[]).map((key) => [EVENT_KINDS[key], EVENTS[key] as EventRow]),
  ));

/** The manifest row of a kind, or undefined for a kind the service does not know. */
export const eventRow = (kind: string): EventRow | undefined => rowsByKind().get(kind);

type QueuesOf<R> = R extends { queue: infer Q; queueWhen: { queue: infer W } }
  ? Q | W
  : R extends { queue: infer Q }
    ? Q
    : never;

/** The kinds a queue may carry: a worker of that queue binds a handler to each. */
export type KindsOn<Q extends QueueKey> = {
  [K in EventKind]: Q extends QueuesOf<RowOf<K>> ? K : never;
}[EventKind];

/** The same set at run time. */
export const kindsOn = <Q extends QueueKey>(queue: Q): KindsOn<Q>[] =>
  [...rowsByKind()]
    .filter(([, row]) => row.queue === queue || row.queueWhen?.queue === queue)
    .map(([kind]) => kind as KindsOn<Q>);

/** The queue an event goes to, by its row; an unknown kind goes to the internal queue, whose worker fails it. */
export function queueKeyFor(kind: string, payload: Record<string, unknown>): QueueKey {
  const row = rowsByKind().get(kind);
  if (!row) return 'internal';
  const when = row.queueWhen;
  return when && payload[when.field] === when.equals ? when.queue : row.queue;
}

/**
 * What is wrong with a payload for its kind's row (a missing or mistyped field), or null when it
 * is what the row declares. Fields the row does not declare are left alone.
 */
export function payloadProblem(row: EventRow, payload: unknown): string | null {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    return 'payload is not an object';
  for (const [field, type] of Object.entries(row.payload)) {
    if (typeof (payload as Record<string, unknown>)[field] !== type)
      return `payload field ${field} is not a ${type}`;
  }
  return null;
}
