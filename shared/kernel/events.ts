/**
 * The event manifest: every outbox event kind, one row each, the twin of the operations manifest
 * (shared/api/manifest.ts). A row says what the kind is called on the wire (`kind`), which queue
 * carries it (`queue`, and `queueWhen` for the one kind a payload field re-routes) and what its
 * payload holds (`payload`: field name -> type; every payload is flat JSON of ids and names).
 *
 * Plain data on purpose: the relay and the sweeper route by it and bundle nothing else (no schema
 * library, no handler). Each worker binds a handler to every kind its queue carries
 * (functions/workers/internal.ts, external.ts); the type `KindsOn` makes a missing binding a
 * compile error and the queue worker refuses to start without one.
 *
 * Adding a kind: a row here, its handler, and the handler's line in the worker of its queue. The
 * row's key becomes `EVENT_KINDS.<key>` (shared/kernel/names.ts), which producers write.
 *
 *   timerFired: {
 *     kind: 'timer.fired',
 *     queue: 'internal',
 *     payload: { timer_id: 'string' },
 *   },
 */

/** Which of the two queues (QUEUES in ./names.ts) carries a kind. */
export type QueueKey = 'internal' | 'external';

/** A payload field's type; every field the service writes today is a string. */
export type PayloadFieldType = 'string';

export interface EventRow {
  /** The `kind` of the outbox envelope and of the SQS message attribute. */
  kind: string;
  queue: QueueKey;
  /** A payload field whose value sends the event to another queue. */
  queueWhen?: { field: string; equals: string; queue: QueueKey };
  payload: Record<string, PayloadFieldType>;
}

export const EVENTS = {
  /** A notification to deliver: `in_app` stays inside, every other channel leaves the system. */
  notificationDeliveryRequested: {
    kind: 'notification.delivery.requested',
    queue: 'external',
    queueWhen: { field: 'channel', equals: 'in_app', queue: 'internal' },
    payload: { notification_id: 'string', channel: 'string' },
  },
  /** A change a workflow rule may act on (docs/api.md section 9.1), with its entity's snapshot. */
  workflowEventRecorded: {
    kind: 'workflow.event_recorded',
    queue: 'internal',
    payload: { event_type: 'string', entity_id: 'string', entity_json: 'string' },
  },
  /** A review decision to run a failed workflow rule action once more. */
  workflowActionRetryRequested: {
    kind: 'workflow.action_retry_requested',
    queue: 'internal',
    payload: { review_item_id: 'string' },
  },
  /** A review decision to run a connection's diagnostics again (docs/api.md section 9.3). */
  integrationDiagnosticsRequested: {
    kind: 'integration.diagnostics_requested',
    queue: 'internal',
    payload: { connection_id: 'string' },
  },
  /** A reconciliation run to do (docs/api.md section 9.3). */
  reconciliationRunRequested: {
    kind: 'reconciliation.run_requested',
    queue: 'internal',
    payload: { run_id: 'string' },
  },
  /** An accounting export to send (docs/api.md section 9.2): it leaves the system. */
  accountingExportRequested: {
    kind: 'accounting.export_requested',
    queue: 'external',
    payload: { export_id: 'string' },
  },
} as const satisfies Record<string, EventRow>;

type Rows = typeof EVENTS;
type RowOf<K extends EventKind> = Extract<Rows[keyof Rows], { kind: K }>;

export type EventKind = Rows[keyof Rows]['kind'];

/** Every kind by its row's key: `EVENT_KINDS.workflowEventRecorded === 'workflow.event_recorded'`. */
export const EVENT_KINDS = Object.fromEntries(
  Object.entries(EVENTS).map(([key, row]) => [key, row.kind]),
) as { readonly [K in keyof Rows]: Rows[K]['kind'] };

const ROWS: ReadonlyMap<string, EventRow> = new Map(Object.values(EVENTS).map((row) => [row.kind, row]));

/** The manifest row of a kind, or undefined for a kind the service does not know. */
export const eventRow = (kind: string): EventRow | undefined => ROWS.get(kind);

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
  Object.values(EVENTS as Record<string, EventRow>)
    .filter((row) => row.queue === queue || row.queueWhen?.queue === queue)
    .map((row) => row.kind as KindsOn<Q>);

/** A kind's payload as its row declares it. */
export type PayloadOf<K extends EventKind> = {
  -readonly [F in keyof RowOf<K>['payload']]: string;
};

/** The queue an event goes to, by its row; an unknown kind goes to the internal queue's DLQ path. */
export function queueKeyFor(kind: string, payload: Record<string, unknown>): QueueKey {
  const row = ROWS.get(kind);
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
