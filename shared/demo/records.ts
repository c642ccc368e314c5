import type * as z from 'zod';
import type { Role } from '#shared/kernel/policy';
import { type Action, type PlannedTask, tryRule, type WorkflowEvent } from '#shared/domain/workflows/plan';
import { call, demoCommand, DOC, PUBLIC_BOUNDARIES } from './common';
import type { BusinessRecordsDemoRead } from './schemas';

/**
 * `/demo/public`'s `businessRecords`: the records of docs/api.md section 9.1 for the demo tenant.
 * A sample invoice and the payment applied to it, one workflow rule, the rule tried on both
 * documents' `document.created` events and the task it creates for the invoice. The rule's test
 * result is computed here by the real matcher and template engine (shared/domain/workflows/plan.ts),
 * the same code the test route and the internal worker run; the task is the planned action as the
 * worker would store it. The inputs are valid API request bodies
 * (tests/e2e/demo-records.test.ts sends them to the local runtime, whose API validates them).
 */

const TENANT = '{tenant_id}';
/** When the demo's documents are created: the rule's task is due counting from here. */
const CREATED_AT = '2026-03-31T09:00:00.000Z';

/** Request bodies of `POST /tenants/{tenant_id}/documents`, as a client would send them. */
export const DEMO_DOCUMENT_INPUTS = {
  invoice: {
    document_type: 'invoice',
    number: 'INV-20417',
    counterparty: 'Cedar Ridge Lumber (fictional)',
    currency: 'USD',
    amount: '5400.00',
    issued_on: '2026-03-16',
    due_on: '2026-04-15',
    lines: [
      { description: 'Douglas fir 2x4, 8 ft', quantity: '1200', unit_amount: '3.50' },
      { description: 'Delivery to River Depot', quantity: '1', unit_amount: '1200.00' },
    ],
  },
  payment: {
    document_type: 'payment',
    number: 'PAY-88120',
    counterparty: 'Cedar Ridge Lumber (fictional)',
    currency: 'USD',
    amount: '4860.00',
    issued_on: '2026-03-31',
    applies_to: 'doc-demo-inv-20417',
  },
} as const;

const DOCUMENT_IDS = { invoice: 'doc-demo-inv-20417', payment: 'doc-demo-pay-88120' } as const;

/** Each document as the API answers it after `POST .../documents` and the invoice's move to open. */
const documentRead = (kind: keyof typeof DEMO_DOCUMENT_INPUTS, status: string): Record<string, unknown> => ({
  ...DEMO_DOCUMENT_INPUTS[kind],
  id: DOCUMENT_IDS[kind],
  tenant_id: TENANT,
  status,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
});

/** Request body of `POST /tenants/{tenant_id}/workflow-rules`. */
export const DEMO_RULE_INPUT = {
  name: 'Large supplier invoice needs a check',
  trigger: { event_type: 'document.created' },
  conditions: [
    { field: 'document_type', op: 'eq', value: 'invoice' },
    { field: 'amount', op: 'gte', value: '5000.00' },
    { field: 'currency', op: 'eq', value: 'USD' },
  ],
  actions: [
    {
      type: 'create_task',
      title: 'Check {{number}} from {{counterparty}}: {{amount}} {{currency}}',
      assignee_role: 'accountant',
      due_in_hours: 48,
    },
  ],
  enabled: true,
} as const satisfies { actions: readonly Action[] } & Record<string, unknown>;

const RULE_ID = 'rule-demo-large-invoice';

/** The `document.created` event of each document, as the outbox carries it to the rules. */
export const demoEvents = (): Record<keyof typeof DEMO_DOCUMENT_INPUTS, WorkflowEvent> => ({
  invoice: { event_type: 'document.created', entity: documentRead('invoice', 'draft') },
  payment: { event_type: 'document.created', entity: documentRead('payment', 'draft') },
});

type Demo = z.output<typeof BusinessRecordsDemoRead>;
type Scalar = string | number | boolean | null;
const scalar = (v: unknown): Scalar =>
  v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : (v as Scalar);

export function businessRecordsDemo(): Demo {
  const events = demoEvents();
  const at = new Date(CREATED_AT);
  const tried = {
    invoice: tryRule(DEMO_RULE_INPUT, events.invoice, at),
    payment: tryRule(DEMO_RULE_INPUT, events.payment, at),
  };
  const planned = tried.invoice.actions.filter((a): a is PlannedTask => a.type === 'create_task');
  const docs = [documentRead('invoice', 'open'), documentRead('payment', 'draft')];
  return {
    status: 'previewed',
    command: demoCommand('demo.public'),
    api: {
      createDocument: call('documents.create'),
      documentStatus: call('documents.changeStatus'),
      createRule: call('workflowRules.create'),
      testRule: call('workflowRules.test'),
      tasks: call('tasks.list'),
    },
    docs: [{ ...DOC.demo }],
    summary: [
      { label: 'Documents', value: String(docs.length), detail: 'an invoice and the payment applied to it' },
      {
        label: 'Rule matches',
        value: `${Object.values(tried).filter((t) => t.matched).length} of ${Object.keys(tried).length}`,
        detail: 'tried on each document.created event',
      },
      { label: 'Tasks created', value: String(planned.length), detail: 'by the rule, for the invoice' },
    ],
    subject: `invoice ${DEMO_DOCUMENT_INPUTS.invoice.number}`,
    documents: docs.map((d) => ({
      id: String(d.id),
      documentType: String(d.document_type),
      number: String(d.number),
      counterparty: String(d.counterparty),
      amount: `${String(d.amount)} ${String(d.currency)}`,
      issuedOn: String(d.issued_on),
      dueOn: typeof d.due_on === 'string' ? d.due_on : null,
      appliesTo: typeof d.applies_to === 'string' ? d.applies_to : null,
      status: String(d.status),
    })),
    invoiceLines: DEMO_DOCUMENT_INPUTS.invoice.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unitAmount: l.unit_amount,
    })),
    workflowRule: {
      id: RULE_ID,
      name: DEMO_RULE_INPUT.name,
      trigger: DEMO_RULE_INPUT.trigger.event_type,
      enabled: DEMO_RULE_INPUT.enabled,
      action: `create_task: "${DEMO_RULE_INPUT.actions[0].title}"`,
    },
    ruleTest: tried.invoice.conditions.map((c) => ({
      field: c.field,
      op: c.op,
      value: scalar(c.value),
      actual: scalar(c.actual),
      passed: c.passed,
    })),
    ruleTests: (Object.keys(tried) as (keyof typeof tried)[]).map((kind) => ({
      event: `document.created ${DEMO_DOCUMENT_INPUTS[kind].number}`,
      matched: tried[kind].matched,
      failedConditions:
        tried[kind].conditions
          .filter((c) => !c.passed)
          .map((c) => `${c.field} ${c.op} ${String(scalar(c.value))}`)
          .join('; ') || 'none',
      plannedActions: tried[kind].actions.length,
      sideEffects: 'none',
    })),
    tasks: planned.map((t) => ({
      title: t.title,
      status: 'open',
      assigneeRole: t.assignee_role satisfies Role | null,
      dueAt: t.due_at,
      subjectType: t.subject_type,
      subjectId: t.subject_id,
      sourceRuleId: RULE_ID,
    })),
    auditTrail: [
      { eventType: 'document.created', note: `${DEMO_DOCUMENT_INPUTS.invoice.number} recorded as draft` },
      { eventType: 'workflow_rule.fired', note: `${DEMO_RULE_INPUT.name}: one create_task action` },
      { eventType: 'task.created', note: 'the task names the rule in sourceRuleId' },
      { eventType: 'document.status_changed', note: 'draft to open' },
    ],
    dataBoundaries: PUBLIC_BOUNDARIES.map((b) => ({ ...b })),
  };
}
