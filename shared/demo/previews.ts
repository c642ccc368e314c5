import type { BusinessDocument } from '#shared/domain/documents/ports';
import type { BusinessException } from '#shared/domain/exceptions/ports';
import type { PreviewData } from '#shared/domain/previews/ports';
import type { IntakeEvent } from '#shared/domain/previews/intake';

/**
 * The demo tenant's records behind the previews shown in `/demo/public`, and the requests the
 * demo asks of them; how an answer becomes the demo's rows is ./preview-rows.ts. The demo computes
 * them with the real previews (shared/domain/previews/), and tests/e2e/demo-agreement.test.ts
 * records the same data through the real API, runs the real endpoints and maps their answers with
 * the same functions: one source of truth for what a preview of this data shows.
 */

/** The moment the demo's previews are computed at (the month-end close). */
export const DEMO_PREVIEW_AT = new Date('2026-03-31T16:00:00.000Z');

/** When the demo tenant's records were recorded: the morning of the same day. */
export const DEMO_RECORDED_AT = new Date('2026-03-31T09:00:00.000Z');

const at = DEMO_RECORDED_AT.toISOString();

export const DEMO_INVOICE = {
  document_type: 'invoice',
  number: 'INV-20417',
  counterparty: 'Cedar Mill Lumber (fictional)',
  currency: 'USD',
  amount: '5400.00',
  issued_on: '2026-03-16',
  due_on: '2026-04-15',
  external_refs: { ledgerly: 'll-inv-20417' },
} as const;

/** The payment, 10% short: the supplier's early-payment discount. */
export const DEMO_PAYMENT = {
  document_type: 'payment',
  number: 'PAY-88120',
  counterparty: 'Cedar Mill Lumber (fictional)',
  currency: 'USD',
  amount: '4860.00',
  issued_on: '2026-03-31',
  external_refs: { bank_feed: 'pb-88120' },
} as const;

export const DEMO_EXCEPTION = {
  exception_type: 'payment_reconciliation.payment_amount_mismatch',
  severity: 'warning',
  title: 'INV-20417 paid 540.00 short',
  summary: 'PAY-88120 covers 4860.00 of 5400.00',
  subject_type: 'document',
} as const;

export const DEMO_IDS = { invoice: 'demo-inv-20417', payment: 'demo-pay-88120', exception: 'demo-exc-1' };
const ids = DEMO_IDS;

/** The requests the demo's previews answer (with the steps of `demoSteps`). */
export const DEMO_EXECUTION_REQUEST = {
  execution_kind: 'action_plan_execution_preview',
  execution_mode: 'dry_run',
  role: 'manager',
  include_preflight: true,
  include_rollback_plan: true,
} as const;

export const DEMO_GATEWAY_REQUEST = {
  approval_kind: 'execution_approval_gateway',
  approver_role: 'manager',
  requester_role: 'manager',
  role: 'owner',
  include_dual_control: true,
} as const;

/** The briefing the demo shows: the accountant's view of the invoice. */
export const demoBriefing = (invoiceId: string) =>
  ({
    role: 'accountant',
    include_resolved: false,
    limit: 20,
    subject_type: 'document',
    subject_id: invoiceId,
  }) as const;

const counterparty = DEMO_INVOICE.counterparty;

/**
 * The provider events of the demo's intake pipeline, at the month-end close: the bank feed sends
 * the short payment again under a new number, the accounting system a new invoice and an update of
 * INV-20417 (already recorded), the bank a payment with no invoice reference, and the CRM an event
 * that is no document at all.
 */
export const DEMO_INTAKE_EVENTS: IntakeEvent[] = [
  {
    source: 'bank_feed',
    event_type: 'payment.received',
    external_id: 'pb-88127',
    occurred_at: '2026-03-31T14:05:00Z',
    payload: {
      number: 'PAY-88127',
      counterparty,
      currency: 'USD',
      amount: '4860.00',
      invoice_number: 'INV-20417',
    },
  },
  {
    source: 'ledgerly',
    event_type: 'invoice.created',
    external_id: 'll-inv-20452',
    payload: {
      number: 'INV-20452',
      counterparty,
      currency: 'USD',
      amount: '1250.00',
      issued_on: '2026-03-30',
      due_on: '2026-04-29',
    },
  },
  {
    source: 'ledgerly',
    event_type: 'invoice.updated',
    external_id: 'll-inv-20417',
    payload: {
      number: DEMO_INVOICE.number,
      counterparty,
      currency: DEMO_INVOICE.currency,
      amount: DEMO_INVOICE.amount,
      issued_on: DEMO_INVOICE.issued_on,
      due_on: DEMO_INVOICE.due_on,
    },
  },
  {
    source: 'bank_feed',
    event_type: 'payment.received',
    external_id: 'pb-88140',
    payload: {
      number: 'PAY-88140',
      counterparty: 'Birch Hollow Builders (fictional)',
      currency: 'USD',
      amount: '310.00',
      issued_on: '2026-03-31',
    },
  },
  { source: 'crm', event_type: 'contact.updated', external_id: 'crm-5521', payload: {} },
];

export const DEMO_INTAKE_REQUEST = {
  events: DEMO_INTAKE_EVENTS,
  include_notification_drafts: true,
  role: 'operator',
} as const;

const document = (
  id: string,
  fields: typeof DEMO_INVOICE | typeof DEMO_PAYMENT,
  extra: Partial<BusinessDocument>,
) =>
  ({
    id,
    tenant_id: 'alder-creek-supply',
    due_on: null,
    lines: [],
    applies_to: null,
    status: 'open',
    created_at: at,
    updated_at: at,
    ...fields,
    ...extra,
  }) as BusinessDocument;

export const DEMO_RECORDS: PreviewData = {
  documents: [
    document(ids.invoice, DEMO_INVOICE, {}),
    document(ids.payment, DEMO_PAYMENT, { applies_to: ids.invoice }),
  ],
  exceptions: [
    {
      id: ids.exception,
      tenant_id: 'alder-creek-supply',
      status: 'open',
      subject_id: ids.invoice,
      impact_json: '{}',
      evidence_json: '{}',
      detected_at: at,
      created_at: at,
      updated_at: at,
      resolved_at: null,
      escalation: null,
      ...DEMO_EXCEPTION,
    } as BusinessException,
  ],
  tasks: [],
  notifications: [],
};

/** The steps the demo runs: acknowledge the exception, then mark the invoice paid. */
export const demoSteps = (exceptionId: string, invoiceId: string) => [
  { action: 'acknowledge_exception', exception_id: exceptionId },
  { action: 'mark_document_paid', document_id: invoiceId },
];
