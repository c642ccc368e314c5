import { randomUUID } from 'node:crypto';
import { round2, type SandboxBook } from './oauth-book';

/**
 * Xero's writes on loopback: `PUT Invoices` and `CreditNotes` (totals computed as Xero does from
 * `LineAmountTypes` and each line's `TaxType`; a duplicate number refused),
 * `CreditNotes/{id}/Allocations` and `Payments`. A refusal is a 400 `ValidationException` listing
 * `Elements[].ValidationErrors[].Message`. Each answers `[status, body]`; oauth-apis-xero.ts routes
 * to them and keeps the answer for its Idempotency-Key.
 */

/** Xero's tax rates of the sandbox organisation, by TaxType (NZ GST 15%). */
export const XERO_SANDBOX_TAX_RATES: Readonly<Record<string, number>> = { OUTPUT2: 0.15, NONE: 0 };

/**
 * Xero's totals of a document's lines: `Exclusive` adds each line's tax on top, `Inclusive` keeps
 * the tax inside the line amount, `NoTax` has none. An unknown TaxType is a validation error.
 */
export function xeroTotals(
  lineAmountTypes: unknown,
  lines: Record<string, unknown>[],
): { SubTotal: number; TotalTax: number; Total: number } | { error: string } {
  let sub = 0;
  let tax = 0;
  for (const line of lines) {
    const amount = Number(line.UnitAmount ?? 0) * Number(line.Quantity ?? 1);
    const type = line.TaxType === undefined ? 'NONE' : String(line.TaxType);
    const rate = XERO_SANDBOX_TAX_RATES[type];
    if (rate === undefined)
      return {
        error: `The TaxType code '${type}' does not exist or cannot be used for this type of transaction.`,
      };
    if (lineAmountTypes === 'Exclusive') {
      sub += amount;
      tax += amount * rate;
    } else if (lineAmountTypes === 'Inclusive') {
      sub += amount / (1 + rate);
      tax += amount - amount / (1 + rate);
    } else sub += amount;
  }
  return { SubTotal: round2(sub), TotalTax: round2(tax), Total: round2(sub + tax) };
}

/** Xero's answer to a refused request: 400 `ValidationException`, each element with its errors. */
export const xeroValidation = (element: Record<string, unknown>, messages: string[]) => ({
  ErrorNumber: 10,
  Type: 'ValidationException',
  Message: 'A validation exception occurred',
  Elements: [{ ...element, ValidationErrors: messages.map((Message) => ({ Message })) }],
});

/** Xero's PUT Invoices / CreditNotes: totals as Xero computes them; a number used twice refused. */
export function xeroDocument(
  book: SandboxBook,
  type: 'invoice' | 'credit_note',
  item: Record<string, unknown>,
  key: string | undefined,
): [number, unknown] {
  const [list, numberField, idField, kind] =
    type === 'invoice'
      ? (['Invoices', 'InvoiceNumber', 'InvoiceID', 'ACCREC'] as const)
      : (['CreditNotes', 'CreditNoteNumber', 'CreditNoteID', 'ACCRECCREDIT'] as const);
  const number = String(item[numberField] ?? '');
  const totals = xeroTotals(
    item.LineAmountTypes,
    (item.LineItems as Record<string, unknown>[] | undefined) ?? [],
  );
  const errors = [
    ...(item.Type === kind ? [] : [`Type must be ${kind}`]),
    ...(number && book.bookingCount('xero', number, type) === 0
      ? []
      : [type === 'invoice' ? 'Invoice # must be unique.' : 'Credit Note # must be unique.']),
    ...('error' in totals ? [totals.error] : []),
  ];
  if (errors.length || 'error' in totals) return [400, xeroValidation(item, errors)];
  const id = randomUUID();
  book.booked.push({
    provider: 'xero',
    type,
    id,
    number,
    amount: totals.Total,
    tax: totals.TotalTax,
    currency: String(item.CurrencyCode),
    key,
    ...(type === 'invoice' ? { due: totals.Total } : {}),
  });
  return [
    200,
    {
      Id: randomUUID(),
      Status: 'OK',
      ProviderName: 'ops-platform',
      [list]: [{ ...item, [idField]: id, ...totals, HasErrors: false }],
    },
  ];
}

/** Xero's PUT CreditNotes/{id}/Allocations: the credit set against an invoice's amount due. */
export function xeroAllocate(
  book: SandboxBook,
  creditNoteId: string,
  a: Record<string, unknown>,
): [number, unknown] {
  const credit = book.find('xero', 'credit_note', creditNoteId);
  const invoice = book.find('xero', 'invoice', (a.Invoice as Record<string, unknown> | undefined)?.InvoiceID);
  const amount = Number(a.Amount ?? 0);
  if (!credit)
    return [404, { Title: 'Not Found', Status: 404, Detail: 'The credit note could not be found' }];
  const errors = !invoice
    ? ['Invoice could not be found']
    : amount > (invoice.due ?? invoice.amount) || amount > credit.amount
      ? ['The amount applied exceeds the amount outstanding on the invoice or the credit note']
      : [];
  if (errors.length || !invoice) return [400, xeroValidation(a, errors)];
  invoice.due = round2((invoice.due ?? invoice.amount) - amount);
  credit.invoice_id = invoice.id;
  return [
    200,
    {
      Id: randomUUID(),
      Status: 'OK',
      Allocations: [
        {
          Amount: amount,
          Date: a.Date,
          Invoice: { InvoiceID: invoice.id },
          CreditNote: { CreditNoteID: credit.id },
        },
      ],
    },
  ];
}

/** Xero's PUT Payments: a payment against an invoice into an account, at most its amount due. */
export function xeroPayment(
  book: SandboxBook,
  p: Record<string, unknown>,
  key: string | undefined,
): [number, unknown] {
  const invoice = book.find('xero', 'invoice', (p.Invoice as Record<string, unknown> | undefined)?.InvoiceID);
  const account = (p.Account as Record<string, unknown> | undefined)?.Code;
  const amount = Number(p.Amount ?? 0);
  const errors = [
    ...(invoice ? [] : ['Invoice could not be found']),
    ...(account ? [] : ['Account code must be specified']),
    ...(invoice && amount > (invoice.due ?? invoice.amount)
      ? ['Payment amount exceeds the amount outstanding on this document']
      : []),
  ];
  if (errors.length || !invoice) return [400, xeroValidation(p, errors)];
  invoice.due = round2((invoice.due ?? invoice.amount) - amount);
  const id = randomUUID();
  book.booked.push({
    provider: 'xero',
    type: 'payment',
    id,
    number: String(p.Reference ?? ''),
    amount,
    tax: 0,
    currency: invoice.currency,
    key,
    invoice_id: invoice.id,
  });
  return [
    200,
    {
      Id: randomUUID(),
      Status: 'OK',
      Payments: [
        {
          ...p,
          PaymentID: id,
          PaymentType: 'ACCRECPAYMENT',
          Status: 'AUTHORISED',
          Invoice: { InvoiceID: invoice.id, InvoiceNumber: invoice.number },
          HasValidationErrors: false,
        },
      ],
    },
  ];
}
