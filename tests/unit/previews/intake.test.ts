import { describe, expect, it } from 'vitest';
import { intakePipeline } from '#shared/domain/previews/intake';
import { api, doc, NOW, TENANT } from './records';

const request = { include_notification_drafts: true, role: 'accountant' as const };
const existing = [
  doc({ id: 'inv-1', number: 'INV-1', amount: '250.00', counterparty: 'Globex Ltd' }),
  doc({
    id: 'pay-old',
    document_type: 'payment',
    number: 'PAY-OLD',
    applies_to: 'inv-1',
    amount: '250.00',
    external_refs: { bank_feed: 'ch_1' },
  }),
];
const payment = (external_id: string, payload: Record<string, unknown>) => ({
  source: 'bank_feed',
  event_type: 'payment.received',
  external_id,
  occurred_at: '2026-03-09T10:00:00Z',
  payload,
});

describe('intake pipeline', () => {
  it('normalises events to documents, refuses what it cannot take with the path, and never echoes the payload', () => {
    const r = intakePipeline(
      {
        ...request,
        events: [
          payment('ch_2', {
            counterparty: 'Initech',
            currency: 'EUR',
            amount: '10.5',
            number: 'PAY-2',
            card: '4242 secret',
          }),
          { source: 'crm', event_type: 'constructor.created', external_id: 'c1', payload: {} },
          payment('ch_3', { counterparty: 'Initech', currency: 'eur', amount: '-1' }),
          payment('ch_2', { counterparty: 'Initech', currency: 'EUR', amount: '10.50', number: 'PAY-2B' }),
          payment('ch_1', {
            counterparty: 'Globex Ltd',
            currency: 'EUR',
            amount: '250.00',
            number: 'PAY-NEW',
          }),
        ],
      },
      { documents: existing },
      TENANT,
      NOW,
      api,
    );
    expect(
      r.intake_previews.map((p) => [
        p.external_id,
        p.accepted,
        p.normalized_as,
        p.problems.map((x) => x.code),
      ]),
    ).toEqual([
      ['ch_2', true, 'document.payment', []],
      ['c1', false, null, ['unsupported_event_type']],
      ['ch_3', false, null, ['invalid', 'invalid']],
      ['ch_2', false, 'document.payment', ['duplicate_in_batch']],
      ['ch_1', false, 'document.payment', ['already_recorded']],
    ]);
    expect(r.intake_previews[0]!.record).toEqual({
      document_type: 'payment',
      number: 'PAY-2',
      counterparty: 'Initech',
      currency: 'EUR',
      amount: '10.50',
      issued_on: '2026-03-09',
      due_on: null,
      applies_to: null,
      external_refs: { bank_feed: 'ch_2' },
    });
    expect(r.intake_previews[2]!.problems.map((p) => p.field)).toEqual([
      'payload.currency',
      'payload.amount',
    ]);
    expect(JSON.stringify(r)).not.toContain('4242');
    expect(r.source_systems).toEqual(['bank_feed', 'crm']);
    expect(r.workbench_context).toMatchObject({ events: 5, accepted: 1, refused: 4, documents_compared: 2 });
  });

  it('runs the reconciliation rules on the new documents against the tenant’s and drafts one notification per finding', () => {
    const r = intakePipeline(
      {
        ...request,
        events: [
          payment('ch_9', {
            counterparty: 'Globex Ltd',
            currency: 'EUR',
            amount: '250.00',
            number: 'PAY-9',
            invoice_number: 'INV-1',
          }),
          payment('ch_8', { counterparty: 'Nobody', currency: 'EUR', amount: '3.00' }),
        ],
      },
      { documents: existing },
      TENANT,
      NOW,
      api,
    );
    expect(r.intake_previews[0]!.record!.applies_to).toBe('inv-1');
    expect(r.detections.observations.map((o) => o.code).sort()).toEqual([
      'duplicate_payment',
      'payment_amount_mismatch',
      'payment_without_invoice',
    ]);
    expect(r.action_plan.steps.map((s) => s.action)).toEqual([
      'create_document',
      'create_document',
      'create_exception',
      'create_exception',
      'create_exception',
    ]);
    expect(r.notification_preview.drafts).toHaveLength(3);
    expect(r.notification_preview.drafts[0]).toMatchObject({
      channel: 'in_app',
      audience_role: 'accountant',
      would_queue: false,
    });
    const none = intakePipeline(
      {
        ...request,
        include_notification_drafts: false,
        events: [payment('ch_8', { counterparty: 'N', currency: 'EUR', amount: '3.00' })],
      },
      { documents: existing },
      TENANT,
      NOW,
      api,
    );
    expect(none.notification_preview).toEqual({ drafts: [], included: false });
  });
});

describe('intake pipeline: the whole result', () => {
  const ev = (
    source: string,
    event_type: string,
    external_id: string,
    payload: Record<string, unknown>,
    occurred_at: string | null = '2026-03-09T10:00:00Z',
  ) => ({ source, event_type, external_id, occurred_at, payload });
  const problem = (field: string, code: string, message: string) => ({ field, code, message });
  const DUE_NOT_BEFORE = problem('payload.due_on', 'invalid', 'must be a date not before issued_on');
  const NO_DATE = problem(
    'payload.issued_on',
    'invalid',
    'must be a date (or the event must carry occurred_at)',
  );
  const refused = (
    index: number,
    source: string,
    event_type: string,
    external_id: string,
    problems: unknown[],
  ) => ({
    index,
    source,
    event_type,
    external_id,
    accepted: false,
    normalized_as: null,
    record: null,
    duplicate_of: null,
    problems,
  });
  const ref = (
    id: string,
    document_type: string,
    number: string,
    counterparty: string,
    amount: string,
    status: string,
  ) => ({
    id,
    document_type,
    number,
    counterparty,
    amount,
    currency: 'EUR',
    status,
  });
  const overpaid = 'Invoice INV-1 is overpaid by 20.00 EUR.';
  const overdue = 'Invoice INV-10 to Initech is 5 day(s) overdue with 200.00 EUR outstanding.';

  it('each event normalised or refused with every problem; the findings the new documents raise; lanes, drafts and counts', () => {
    const r = intakePipeline(
      {
        role: 'operator',
        include_notification_drafts: true,
        events: [
          ev('erp', 'invoice.created', 'e-10', {
            number: 'INV-10',
            counterparty: 'Initech',
            currency: 'EUR',
            amount: 200,
            issued_on: '2026-03-01',
            due_on: '2026-03-05',
          }),
          ev('erp', 'credit_note.issued', 'e-11', {
            counterparty: 'Globex Ltd',
            currency: 'EUR',
            amount: '20',
            invoice_number: 'INV-1',
          }),
          ev(
            'bank_feed',
            'payment.received',
            'ch_5',
            {
              currency: 'EURO',
              amount: '0.00',
              issued_on: 'yesterday',
              due_on: '2026-01-01',
              invoice_number: 'INV-404',
            },
            null,
          ),
          ev('bank_feed', 'payment.received', 'ch_6', {
            counterparty: 'Initech',
            currency: 'EUR',
            amount: '5.00',
            issued_on: '2026-03-02',
            due_on: '2026-03-01',
          }),
          // An invoice names no invoice: its invoice_number is not looked up.
          ev('crm', 'invoice.created', 'c-1', {
            number: 'INV-1',
            counterparty: 'Globex Ltd',
            currency: 'EUR',
            amount: '1.00',
            invoice_number: 'INV-404',
          }),
          ev(
            'bank_feed',
            'payment.received',
            'ch_7',
            { counterparty: 'Initech', currency: 'EUR', amount: '5.00' },
            null,
          ),
          ev('shop', 'order.placed', 'o-1', {}),
        ],
      },
      { documents: existing },
      TENANT,
      NOW,
      api,
    );
    expect(r).toEqual({
      role: 'operator',
      status: 'previewed',
      intake_previews: [
        {
          index: 0,
          source: 'erp',
          event_type: 'invoice.created',
          external_id: 'e-10',
          accepted: true,
          normalized_as: 'document.invoice',
          record: {
            document_type: 'invoice',
            number: 'INV-10',
            counterparty: 'Initech',
            currency: 'EUR',
            amount: '200.00',
            issued_on: '2026-03-01',
            due_on: '2026-03-05',
            applies_to: null,
            external_refs: { erp: 'e-10' },
          },
          duplicate_of: null,
          problems: [],
        },
        {
          index: 1,
          source: 'erp',
          event_type: 'credit_note.issued',
          external_id: 'e-11',
          accepted: true,
          normalized_as: 'document.credit_note',
          // No number: the event's id; no issued_on: the day it occurred.
          record: {
            document_type: 'credit_note',
            number: 'e-11',
            counterparty: 'Globex Ltd',
            currency: 'EUR',
            amount: '20.00',
            issued_on: '2026-03-09',
            due_on: null,
            applies_to: 'inv-1',
            external_refs: { erp: 'e-11' },
          },
          duplicate_of: null,
          problems: [],
        },
        refused(2, 'bank_feed', 'payment.received', 'ch_5', [
          problem('payload.counterparty', 'missing', 'is required'),
          problem('payload.currency', 'invalid', 'must be 3 upper-case letters'),
          problem('payload.amount', 'invalid', 'must be a decimal string over 0 with at most 2 decimals'),
          NO_DATE,
          DUE_NOT_BEFORE,
          problem('payload.invoice_number', 'not_found', 'no invoice INV-404 in this tenant'),
        ]),
        refused(3, 'bank_feed', 'payment.received', 'ch_6', [DUE_NOT_BEFORE]),
        {
          index: 4,
          source: 'crm',
          event_type: 'invoice.created',
          external_id: 'c-1',
          accepted: false,
          normalized_as: 'document.invoice',
          record: {
            document_type: 'invoice',
            number: 'INV-1',
            counterparty: 'Globex Ltd',
            currency: 'EUR',
            amount: '1.00',
            issued_on: '2026-03-09',
            due_on: null,
            applies_to: null,
            external_refs: { crm: 'c-1' },
          },
          duplicate_of: 'inv-1',
          problems: [problem('external_id', 'already_recorded', 'already recorded as document inv-1')],
        },
        refused(5, 'bank_feed', 'payment.received', 'ch_7', [NO_DATE]),
        refused(6, 'shop', 'order.placed', 'o-1', [
          problem(
            'event_type',
            'unsupported_event_type',
            'order.placed is not an invoice.*, payment.* or credit_note.* event.',
          ),
        ]),
      ],
      detections: {
        rule_set: 'payment_reconciliation',
        observations: [
          {
            code: 'payment_amount_mismatch',
            severity: 'critical',
            message: overpaid,
            documents: [
              ref('inv-1', 'invoice', 'INV-1', 'Globex Ltd', '250.00', 'open'),
              ref('pay-old', 'payment', 'PAY-OLD', 'Globex Ltd', '250.00', 'open'),
              ref('intake-2', 'credit_note', 'e-11', 'Globex Ltd', '20.00', 'draft'),
            ],
            suggested_repair: {
              action: 'refund_or_credit_overpayment',
              description:
                'Refund 20.00 EUR to Globex Ltd, or keep it as a credit, then void the excess payment if it was booked twice.',
              document_ids: ['pay-old', 'intake-2'],
            },
          },
          {
            code: 'overdue_open_invoice',
            severity: 'warning',
            message: overdue,
            documents: [ref('intake-1', 'invoice', 'INV-10', 'Initech', '200.00', 'open')],
            suggested_repair: {
              action: 'send_payment_reminder',
              description:
                'Send Initech a reminder for invoice INV-10; mark it paid once the payment is recorded.',
              document_ids: ['intake-1'],
            },
          },
        ],
      },
      action_plan: {
        steps: [
          [1, 'create_document', 'accountant', 'Record invoice INV-10 from erp', '/tenants/acme/documents'],
          [2, 'create_document', 'operator', 'Record credit_note e-11 from erp', '/tenants/acme/documents'],
          [3, 'create_exception', 'operator', overpaid, '/tenants/acme/exceptions'],
          [4, 'create_exception', 'operator', overdue, '/tenants/acme/exceptions'],
        ].map(([step, action, lane, description, path]) => ({ step, action, lane, description, api: path })),
        lanes: [
          { role: 'accountant', steps: [1] },
          { role: 'operator', steps: [2, 3, 4] },
        ],
      },
      notification_preview: {
        drafts: [
          ['payment amount mismatch (critical)', overpaid],
          ['overdue open invoice (warning)', overdue],
        ].map(([subject, body]) => ({
          channel: 'in_app',
          audience_role: 'operator',
          subject,
          body,
          status: 'draft',
          would_queue: false,
        })),
      },
      workbench_context: { role: 'operator', events: 7, accepted: 2, refused: 5, documents_compared: 2 },
      data_boundaries: [
        { boundary: 'table', access: 'read_only', note: 'records were read; none was written' },
        { boundary: 'audit_log', access: 'none', note: 'no audit event is written by a preview' },
        { boundary: 'outbox', access: 'none', note: 'no outbox event, so no queue message and no delivery' },
        { boundary: 'providers', access: 'none', note: 'no provider is called and no secret is read' },
        {
          boundary: 'payloads',
          access: 'read',
          note: 'only number, counterparty, currency, amount, issued_on, due_on, invoice_number are read; payloads are not echoed or kept',
        },
      ],
      source_systems: ['bank_feed', 'crm', 'erp', 'shop'],
      summary: "7 events: 2 accepted, 5 refused; 2 findings against the tenant's 2 documents.",
      evidence: [{ events: 7, accepted: 2, findings: 2 }],
    });
  });

  it('one event, one finding, one document read: the summary says so in the singular', () => {
    const r = intakePipeline(
      {
        ...request,
        events: [payment('ch_9', { counterparty: 'Initech', currency: 'EUR', amount: '3.00' })],
      },
      { documents: [existing[0]!] },
      TENANT,
      NOW,
      api,
    );
    expect(r.summary).toBe("1 event: 1 accepted, 0 refused; 1 finding against the tenant's 1 document.");
    expect(r.detections.observations.map((o) => o.code)).toEqual(['payment_without_invoice']);
  });
});
