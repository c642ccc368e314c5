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

describe('the whole of a reconciliation', () => {
  const ledger = [
    doc({ id: 'inv-under', number: 'INV-UNDER', amount: '100.00' }),
    doc({
      id: 'pay-under',
      number: 'PAY-UNDER',
      document_type: 'payment',
      amount: '60.00',
      applies_to: 'inv-under',
    }),
    doc({ id: 'inv-over', number: 'INV-OVER', amount: '100.00', status: 'paid' }),
    doc({
      id: 'pay-over',
      number: 'PAY-OVER',
      document_type: 'payment',
      amount: '120.00',
      applies_to: 'inv-over',
      external_refs: { bank_feed: 'b1' },
    }),
    doc({ id: 'inv-cur', number: 'INV-CUR', amount: '50.00', status: 'paid' }),
    doc({
      id: 'pay-cur',
      number: 'PAY-CUR',
      document_type: 'payment',
      amount: '50.00',
      currency: 'USD',
      applies_to: 'inv-cur',
      external_refs: { stripe: 's1' },
    }),
    doc({ id: 'inv-late', number: 'INV-LATE', amount: '80.00', due_on: '2026-03-01' }),
    doc({
      id: 'pay-d1',
      number: 'PAY-D1',
      document_type: 'payment',
      amount: '30.00',
      counterparty: 'Initech',
    }),
    doc({
      id: 'pay-d2',
      number: 'PAY-D2',
      document_type: 'payment',
      amount: '30.00',
      counterparty: 'Initech',
    }),
    doc({ id: 'inv-void', number: 'INV-VOID', status: 'void' }),
    doc({ id: 'pay-v', number: 'PAY-V', document_type: 'payment', amount: '5.00', applies_to: 'inv-void' }),
    doc({ id: 'pay-m', number: 'PAY-M', document_type: 'payment', amount: '7.00', applies_to: 'ghost' }),
  ];
  const noInvoice = (
    id: string,
    amount: string,
    counterparty: string,
    message: string,
    applies_to: string | null,
  ) => [
    'payment_without_invoice',
    'warning',
    id,
    message,
    { amount, currency: 'EUR', applies_to },
    {
      action: 'match_payment_to_invoice',
      description: `Find the open invoice of ${counterparty} for ${amount} EUR and record the payment against it, or refund it.`,
      document_ids: [id],
    },
  ];

  it('every rule: its message, the exact amounts and the repair, most severe first', () => {
    const findings = reconcile(ledger, NOW);
    expect(findings.map((f) => f.documents.map((d) => d.id))).toEqual([
      ['pay-d1', 'pay-d2'],
      ['inv-cur', 'pay-cur'],
      ['inv-over', 'pay-over'],
      ['inv-late'],
      ['inv-under', 'pay-under'],
      ['pay-d1'],
      ['pay-d2'],
      ['pay-m'],
      ['pay-v', 'inv-void'],
    ]);
    expect(findings[1]!.documents[1]).toEqual({
      id: 'pay-cur',
      document_type: 'payment',
      number: 'PAY-CUR',
      counterparty: 'Globex Ltd',
      amount: '50.00',
      currency: 'USD',
      status: 'open',
    });
    expect(
      findings.map((f) => [f.code, f.severity, f.subject_id, f.message, f.details, f.suggested_repair]),
    ).toEqual([
      [
        'duplicate_payment',
        'critical',
        'pay-d1',
        '2 payments of 30.00 EUR from Initech on 2026-02-01.',
        { amount: '30.00', currency: 'EUR', count: 2, duplicated_amount: '30.00' },
        {
          action: 'void_duplicate_payment',
          description:
            'Keep payment PAY-D1; void PAY-D2 after checking the bank statement, and refund if the money was received twice.',
          document_ids: ['pay-d2'],
        },
      ],
      [
        'payment_amount_mismatch',
        'critical',
        'inv-cur',
        'Invoice INV-CUR (EUR) has 1 applied document(s) in another currency.',
        { invoice_amount: '50.00', applied_amount: '0.00', difference: '50.00', currency: 'EUR' },
        {
          action: 'correct_payment_currency',
          description: 'Re-book the payment in the invoice currency (void it and record it again).',
          document_ids: ['pay-cur'],
        },
      ],
      [
        'payment_amount_mismatch',
        'critical',
        'inv-over',
        'Invoice INV-OVER is overpaid by 20.00 EUR.',
        { invoice_amount: '100.00', applied_amount: '120.00', difference: '-20.00', currency: 'EUR' },
        {
          action: 'refund_or_credit_overpayment',
          description:
            'Refund 20.00 EUR to Globex Ltd, or keep it as a credit, then void the excess payment if it was booked twice.',
          document_ids: ['pay-over'],
        },
      ],
      [
        'overdue_open_invoice',
        'warning',
        'inv-late',
        'Invoice INV-LATE to Globex Ltd is 9 day(s) overdue with 80.00 EUR outstanding.',
        { due_on: '2026-03-01', days_overdue: 9, outstanding: '80.00', currency: 'EUR' },
        {
          action: 'send_payment_reminder',
          description:
            'Send Globex Ltd a reminder for invoice INV-LATE; mark it paid once the payment is recorded.',
          document_ids: ['inv-late'],
        },
      ],
      [
        'payment_amount_mismatch',
        'warning',
        'inv-under',
        'Invoice INV-UNDER is underpaid by 40.00 EUR.',
        { invoice_amount: '100.00', applied_amount: '60.00', difference: '40.00', currency: 'EUR' },
        {
          action: 'collect_remaining_amount',
          description: 'Ask Globex Ltd for the remaining 40.00 EUR, or issue a credit note for it.',
          document_ids: ['inv-under'],
        },
      ],
      noInvoice(
        'pay-d1',
        '30.00',
        'Initech',
        'Payment PAY-D1 of 30.00 EUR from Initech applies to no invoice.',
        null,
      ),
      noInvoice(
        'pay-d2',
        '30.00',
        'Initech',
        'Payment PAY-D2 of 30.00 EUR from Initech applies to no invoice.',
        null,
      ),
      noInvoice(
        'pay-m',
        '7.00',
        'Globex Ltd',
        'Payment PAY-M applies to a document that does not exist.',
        'ghost',
      ),
      noInvoice('pay-v', '5.00', 'Globex Ltd', 'Payment PAY-V applies to void invoice INV-VOID.', 'inv-void'),
    ]);
  });

  it('a duplicate for an invoice names the invoice; three payments count the two extra', () => {
    const [dup] = reconcile(
      [
        doc({ id: 'inv-1', number: 'INV-1', amount: '90.00' }),
        ...['p3', 'p1', 'p2'].map((id) =>
          doc({
            id,
            number: id.toUpperCase(),
            document_type: 'payment',
            amount: '30.00',
            applies_to: 'inv-1',
          }),
        ),
      ],
      NOW,
    );
    expect(dup).toMatchObject({
      code: 'duplicate_payment',
      subject_id: 'p1',
      message: '3 payments of 30.00 EUR from Globex Ltd for invoice INV-1.',
      details: { count: 3, duplicated_amount: '60.00' },
      suggested_repair: {
        description:
          'Keep payment P1; void P2, P3 after checking the bank statement, and refund if the money was received twice.',
        document_ids: ['p2', 'p3'],
      },
    });
  });

  it('an invoice is critical only past 30 days overdue', () => {
    const overdue = reconcile(
      [doc({ id: 'inv-30', due_on: '2026-02-08' }), doc({ id: 'inv-31', due_on: '2026-02-07' })],
      NOW,
    );
    expect(overdue.map((f) => [f.subject_id, f.severity, f.details.days_overdue])).toEqual([
      ['inv-31', 'critical', 31],
      ['inv-30', 'warning', 30],
    ]);
  });

  it('the detection preview: counts per rule, open exceptions named, repairs with their API, the limit', () => {
    const exceptions = [
      exception({
        id: 'x-open',
        exception_type: 'payment_reconciliation.payment_amount_mismatch',
        subject_type: 'document',
        subject_id: 'inv-over',
      }),
      // None of these is the finding's open exception: resolved, about an invoice, of another rule.
      exception({
        id: 'x-resolved',
        status: 'resolved',
        exception_type: 'payment_reconciliation.duplicate_payment',
        subject_type: 'document',
        subject_id: 'pay-d1',
      }),
      exception({
        id: 'x-invoice',
        exception_type: 'payment_reconciliation.payment_amount_mismatch',
        subject_type: 'invoice',
        subject_id: 'inv-cur',
      }),
      exception({
        id: 'x-other',
        exception_type: 'payment_reconciliation.overdue_open_invoice',
        subject_type: 'document',
        subject_id: 'inv-cur',
      }),
    ];
    const r = detection(
      { rule_set: 'payment_reconciliation', limit: 3 },
      { documents: ledger, exceptions },
      NOW,
      api,
    );
    expect(r.rules.map((x) => [x.code, x.findings])).toEqual([
      ['payment_amount_mismatch', 3],
      ['duplicate_payment', 1],
      ['overdue_open_invoice', 1],
      ['payment_without_invoice', 4],
    ]);
    expect(r.observations.map((o) => o.subject_id)).toEqual(['pay-d1', 'inv-cur', 'inv-over']);
    expect(r.observations[0]).toEqual(reconcile(ledger, NOW)[0]);
    expect(r.detected_exceptions).toEqual(
      [
        [
          'payment_reconciliation.duplicate_payment',
          'pay-d1',
          '2 payments of 30.00 EUR from Initech on 2026-02-01.',
          null,
        ],
        [
          'payment_reconciliation.payment_amount_mismatch',
          'inv-cur',
          'Invoice INV-CUR (EUR) has 1 applied document(s) in another currency.',
          null,
        ],
        [
          'payment_reconciliation.payment_amount_mismatch',
          'inv-over',
          'Invoice INV-OVER is overpaid by 20.00 EUR.',
          'x-open',
        ],
      ].map(([exception_type, subject_id, title, open]) => ({
        exception_type,
        severity: 'critical',
        subject_type: 'document',
        subject_id,
        title,
        already_open_exception_id: open,
        would_create: open === null,
      })),
    );
    expect(r.suggested_repair_actions.map((a) => [a.code, a.action, a.document_ids, a.api])).toEqual([
      ['duplicate_payment', 'void_duplicate_payment', ['pay-d2'], '/tenants/acme/documents/pay-d2'],
      ['payment_amount_mismatch', 'correct_payment_currency', ['pay-cur'], '/tenants/acme/documents/pay-cur'],
      [
        'payment_amount_mismatch',
        'refund_or_credit_overpayment',
        ['pay-over'],
        '/tenants/acme/documents/pay-over',
      ],
    ]);
    expect(r.suggested_repair_actions[0]!.description).toBe(
      reconcile(ledger, NOW)[0]!.suggested_repair.description,
    );
    expect(r.source_systems).toEqual(['bank_feed', 'stripe']);
    expect(r.summary).toBe(
      '9 finding(s) in 12 document(s): 3 payment_amount_mismatch, 1 duplicate_payment, 1 overdue_open_invoice, 4 payment_without_invoice; the first 3 shown.',
    );
    expect(r.evidence).toEqual([{ findings: 9, shown: 3 }]);
    const all = detection(
      { rule_set: 'payment_reconciliation', limit: 9 },
      { documents: ledger, exceptions },
      NOW,
      api,
    );
    expect(all.summary).toBe(
      '9 finding(s) in 12 document(s): 3 payment_amount_mismatch, 1 duplicate_payment, 1 overdue_open_invoice, 4 payment_without_invoice.',
    );
    const none = detection(
      { rule_set: 'payment_reconciliation', limit: 9 },
      { documents: [], exceptions },
      NOW,
      api,
    );
    expect(none.summary).toBe('No reconciliation findings in 0 document(s).');
    expect(none.source_systems).toEqual([]);
  });

  it('subjects: a document matches any document of a finding; a subject type without an id matches all of its kind; others match none', () => {
    const run = (subject_type: string, subject_id?: string) =>
      detection(
        { rule_set: 'payment_reconciliation', limit: 50, subject_type, subject_id },
        { documents: ledger, exceptions: [] },
        NOW,
        api,
      ).observations.map((o) => [o.code, o.subject_id]);
    expect(run('document', 'pay-d2')).toEqual([
      ['duplicate_payment', 'pay-d1'],
      ['payment_without_invoice', 'pay-d2'],
    ]);
    expect(run('document')).toHaveLength(9);
    expect(run('counterparty')).toHaveLength(9);
    expect(run('counterparty', 'Initech')).toEqual([
      ['duplicate_payment', 'pay-d1'],
      ['payment_without_invoice', 'pay-d1'],
      ['payment_without_invoice', 'pay-d2'],
    ]);
    expect(run('invoice', 'inv-over')).toEqual([]);
  });
});
