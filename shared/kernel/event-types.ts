/**
 * The subscription event types (docs/api.md, "Event subscriptions"): every audited change a
 * tenant's webhook endpoint may subscribe to, declared once. A type is here when its change writes
 * the `workflow.event_recorded` outbox event with the record as the change left it
 * (shared/domain/workflows/events.ts takes only these names, so a producer of an undeclared type
 * is a compile error), plus `webhook.test`, which only the test send emits. `data` names the read
 * schema of the record the message's `data` holds; scripts/build-event-types.ts turns each into
 * its JSON Schema (event-types.gen.ts), which `GET /event-types` serves.
 *
 * Adding a type: its row here; `npm run generate`.
 */

export type EventDataSchema =
  | 'BusinessExceptionRead'
  | 'DocumentRead'
  | 'TaskRead'
  | 'AccountingExportRead'
  | 'IntegrationIssueData'
  | 'WorkflowRunRead'
  | 'WebhookTestData';

export interface EventTypeRow {
  description: string;
  data: EventDataSchema;
}

export const SUBSCRIBABLE_EVENTS = {
  'exception.created': { description: 'A business exception was opened.', data: 'BusinessExceptionRead' },
  'exception.status_changed': {
    description: 'A business exception was acknowledged or resolved.',
    data: 'BusinessExceptionRead',
  },
  'exception.escalated': {
    description: 'An open exception reached the next level of its escalation policy.',
    data: 'BusinessExceptionRead',
  },
  'exception.ack_timed_out': {
    description: 'An acknowledged exception went back to open after its acknowledgement timeout.',
    data: 'BusinessExceptionRead',
  },
  'document.created': { description: 'A business document was created.', data: 'DocumentRead' },
  'document.status_changed': { description: "A business document's status changed.", data: 'DocumentRead' },
  'document.overdue': {
    description: 'An invoice is still open after the end of its due date.',
    data: 'DocumentRead',
  },
  'task.status_changed': { description: "A task's status changed.", data: 'TaskRead' },
  'task.overdue': { description: 'An open task passed its due time.', data: 'TaskRead' },
  'accounting_export.failed': { description: 'An accounting export failed.', data: 'AccountingExportRead' },
  'integration.issue_opened': {
    description: "A connection's diagnostics opened an integration issue.",
    data: 'IntegrationIssueData',
  },
  'workflow_run.failed': {
    description: "A workflow rule's run ended failed (an action failed, or the loop guard stopped it).",
    data: 'WorkflowRunRead',
  },
  'webhook.test': {
    description: 'A test message, sent only by POST .../webhook-endpoints/{id}/test.',
    data: 'WebhookTestData',
  },
} as const satisfies Record<string, EventTypeRow>;

export type SubscribableEventType = keyof typeof SUBSCRIBABLE_EVENTS;
/** The types a recorded change emits (all but the test send's). */
export type RecordedEventType = Exclude<SubscribableEventType, 'webhook.test'>;

export const EVENT_TYPE_NAMES = Object.keys(SUBSCRIBABLE_EVENTS) as SubscribableEventType[];

/**
 * The types a workflow rule may be triggered by: every recorded change, derived from the table
 * above so a new type is a trigger without a second list to keep.
 */
export const RECORDED_EVENT_TYPES = EVENT_TYPE_NAMES.filter(
  (type): type is RecordedEventType => type !== 'webhook.test',
) as [RecordedEventType, ...RecordedEventType[]];

export const isSubscribableEventType = (type: string): type is SubscribableEventType =>
  Object.hasOwn(SUBSCRIBABLE_EVENTS, type);
