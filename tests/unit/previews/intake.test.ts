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
