import { describe, expect, it } from 'vitest';
import { detection, reconcile } from '#shared/domain/previews/detection';
import { api, doc, exception, NOW } from './records';

const codes = (docs: Parameters<typeof reconcile>[0]) =>
  reconcile(docs, NOW).map((f) => [f.code, f.subject_id, f.severity]);

describe('payment_reconciliation rules', () => {
  it('finds nothing when each payment settles its invoice exactly', () => {
    expect(
      codes([
        doc({ id: 'inv-1', amount: '100.10', status: 'paid', due_on: '2026-02-15' }),
        doc({ id: 'pay-1', document_type: 'payment', amount: '60.05', applies_to: 'inv-1' }),
        doc({
          id: 'pay-2',
          document_type: 'payment',
          amount: '40.05',
          applies_to: 'inv-1',
          issued_on: '2026-02-02',
        }),
      ]),
    ).toEqual([]);
  });

  it('an underpaid invoice: warning, the exact difference, collect the rest', () => {
    const [f, ...rest] = reconcile(
      [
        doc({ id: 'inv-1', amount: '0.30' }),
        doc({ id: 'pay-1', document_type: 'payment', amount: '0.10', applies_to: 'inv-1' }),
        doc({ id: 'cn-1', document_type: 'credit_note', amount: '0.10', applies_to: 'inv-1' }),
      ],
      NOW,
    );
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      code: 'payment_amount_mismatch',
      severity: 'warning',
      subject_id: 'inv-1',
      details: { invoice_amount: '0.30', applied_amount: '0.20', difference: '0.10' },
      suggested_repair: { action: 'collect_remaining_amount', document_ids: ['inv-1'] },
    });
    expect(f!.documents.map((d) => d.id)).toEqual(['inv-1', 'pay-1', 'cn-1']);
  });

  it('an overpaid invoice and a payment in another currency are critical', () => {
    expect(
      codes([
        doc({ id: 'inv-1', amount: '100.00' }),
        doc({ id: 'pay-1', document_type: 'payment', amount: '120.00', applies_to: 'inv-1' }),
        doc({ id: 'inv-2', amount: '50.00' }),
        doc({ id: 'pay-2', document_type: 'payment', amount: '50.00', currency: 'USD', applies_to: 'inv-2' }),
      ]),
    ).toEqual([
      ['payment_amount_mismatch', 'inv-1', 'critical'],
      ['payment_amount_mismatch', 'inv-2', 'critical'],
    ]);
  });

  it('void payments do not count, and a void invoice raises nothing itself', () => {
    expect(
      codes([
        doc({ id: 'inv-1', amount: '100.00', status: 'paid' }),
        doc({ id: 'pay-1', document_type: 'payment', amount: '100.00', applies_to: 'inv-1' }),
        doc({ id: 'pay-2', document_type: 'payment', amount: '100.00', applies_to: 'inv-1', status: 'void' }),
        doc({ id: 'inv-9', status: 'void', due_on: '2025-01-01' }),
      ]),
    ).toEqual([]);
  });

  it('duplicate payments: same invoice, counterparty, currency and amount; keeps the first', () => {
    const findings = reconcile(
      [
        doc({ id: 'inv-1', amount: '100.00' }),
        doc({
          id: 'pay-b',
          document_type: 'payment',
          amount: '100.00',
          applies_to: 'inv-1',
          issued_on: '2026-02-03',
        }),
        doc({
          id: 'pay-a',
          document_type: 'payment',
          amount: '100.0',
          applies_to: 'inv-1',
          issued_on: '2026-02-02',
        }),
      ],
      NOW,
    );
    const dup = findings.find((f) => f.code === 'duplicate_payment')!;
    expect(dup).toMatchObject({
      severity: 'critical',
      subject_id: 'pay-a',
      details: { count: 2, duplicated_amount: '100.00' },
      suggested_repair: { action: 'void_duplicate_payment', document_ids: ['pay-b'] },
    });
    // The two payments also overpay the invoice.
    expect(findings.map((f) => f.code).sort()).toEqual(['duplicate_payment', 'payment_amount_mismatch']);
  });

  it('overdue open invoices: days from due_on to today, critical past 30 days; a paid or not-yet-due one is not', () => {
    const findings = reconcile(
      [
        doc({ id: 'inv-late', due_on: '2026-03-01' }),
        doc({ id: 'inv-very-late', due_on: '2026-01-01' }),
        doc({ id: 'inv-today', due_on: '2026-03-10' }),
        doc({ id: 'inv-paid', due_on: '2026-01-01', status: 'paid' }),
        doc({ id: 'inv-draft', due_on: '2026-01-01', status: 'draft' }),
      ],
      NOW,
    );
    expect(findings.map((f) => [f.subject_id, f.severity, f.details.days_overdue])).toEqual([
      ['inv-very-late', 'critical', 68],
      ['inv-late', 'warning', 9],
    ]);
  });

  it('payments with no invoice, or applied to a void or missing one', () => {
    expect(
      codes([
        doc({ id: 'pay-1', document_type: 'payment' }),
        doc({ id: 'inv-void', status: 'void' }),
        doc({ id: 'pay-2', document_type: 'payment', applies_to: 'inv-void', amount: '7.00' }),
        doc({ id: 'pay-3', document_type: 'payment', applies_to: 'gone', amount: '8.00' }),
      ]),
    ).toEqual([
      ['payment_without_invoice', 'pay-1', 'warning'],
      ['payment_without_invoice', 'pay-2', 'warning'],
      ['payment_without_invoice', 'pay-3', 'warning'],
    ]);
  });
});

describe('detection preview', () => {
  const documents = [
    doc({ id: 'inv-1', due_on: '2026-03-01', external_refs: { xero: 'X-1' } }),
    doc({ id: 'pay-1', document_type: 'payment', counterparty: 'Initech', amount: '5.00' }),
  ];

  it('names an already open exception instead of proposing a second one, and honours limit', () => {
    const open = exception({
      id: 'e1',
      exception_type: 'payment_reconciliation.overdue_open_invoice',
      subject_type: 'document',
      subject_id: 'inv-1',
    });
    const r = detection(
      { rule_set: 'payment_reconciliation', limit: 50 },
      { documents, exceptions: [open] },
      NOW,
      api,
    );
    expect(
      r.detected_exceptions.map((d) => [d.subject_id, d.would_create, d.already_open_exception_id]),
    ).toEqual([
      ['inv-1', false, 'e1'],
      ['pay-1', true, null],
    ]);
    expect(r.rules.map((x) => [x.code, x.findings])).toEqual([
      ['payment_amount_mismatch', 0],
      ['duplicate_payment', 0],
      ['overdue_open_invoice', 1],
      ['payment_without_invoice', 1],
    ]);
    expect(r.source_systems).toEqual(['xero']);
    const one = detection(
      { rule_set: 'payment_reconciliation', limit: 1 },
      { documents, exceptions: [] },
      NOW,
      api,
    );
    expect(one.observations).toHaveLength(1);
    expect(one.summary).toContain('the first 1 shown');
  });

  it('a document or counterparty subject narrows the findings', () => {
    const byDoc = detection(
      { rule_set: 'payment_reconciliation', limit: 50, subject_type: 'document', subject_id: 'pay-1' },
      { documents, exceptions: [] },
      NOW,
      api,
    );
    expect(byDoc.observations.map((o) => o.code)).toEqual(['payment_without_invoice']);
    const byName = detection(
      {
        rule_set: 'payment_reconciliation',
        limit: 50,
        subject_type: 'counterparty',
        subject_id: 'Globex Ltd',
      },
      { documents, exceptions: [] },
      NOW,
      api,
    );
    expect(byName.observations.map((o) => o.code)).toEqual(['overdue_open_invoice']);
  });
});
