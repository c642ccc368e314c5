import type { AccountingTarget, BookingResult, TargetDocument } from '#shared/domain/accounting/ports';
import type { Connection } from '#shared/domain/integrations/ports';
import { xeroLineAmountTypes } from '#shared/domain/integrations/adapters/booking-rules';
import type { OAuthSettings } from '#functions/config';
import { authorized, str, type TokenFor } from './oauth-calls';
import { oauthEndpoints } from './oauth-provider';
import { answerOf, derivedKey, failed, kindOf, rows } from './oauth-target-answers';

/**
 * The export client of the Xero adapter, in the shapes Xero documents
 * (shared/domain/integrations/adapters/xero.ts; docs/connecting-accounting.md cites the
 * references). Each document type is booked as itself: `Invoices` (ACCREC), `CreditNotes`
 * (ACCRECCREDIT, allocated to its invoice) and `Payments` (against its invoice's InvoiceID). A 401
 * refreshes the token once and repeats the call once; the token's own failures (a refused
 * refresh) end the document's call. A refusal carries Xero's own message.
 */

/**
 * Xero's words: a `ValidationException` lists `Elements[].ValidationErrors[].Message`; other
 * errors carry `Message` or (401/403) `Detail`.
 */
export const xeroWords = (body: Record<string, unknown>): string | undefined => {
  const listed = rows(body.Elements).flatMap((e) => rows(e.ValidationErrors).map((v) => String(v.Message)));
  if (listed.length) return listed.join('; ');
  return str(body.Message) ?? str(body.Detail);
};

export function xeroTarget(settings: OAuthSettings, token: TokenFor, c: Connection): AccountingTarget {
  const api = oauthEndpoints(settings, 'xero').api;
  const headers = (accessToken: string, key?: string): Record<string, string> => ({
    authorization: `Bearer ${accessToken}`,
    'xero-tenant-id': String(c.config.organisation_id ?? ''),
    ...(key ? { 'idempotency-key': key } : {}),
    'content-type': 'application/json',
    accept: 'application/json',
  });
  const put = (d: TargetDocument, path: string, key: string, body: unknown) =>
    authorized(token, c, settings.timeoutMs, (accessToken) => [
      `${api}/${path}`,
      { method: 'PUT', headers: headers(accessToken, key), body: JSON.stringify(body) },
    ]).then((res) => answerOf(d, res, xeroWords));

  /** The document's line as Xero books it: the amount is the total, tax included (booking-rules.ts). */
  const lineOf = (d: TargetDocument, label: string) => {
    const doc = d.document;
    const taxType = str(c.config.tax_type);
    return {
      LineAmountTypes: xeroLineAmountTypes(c.config),
      LineItems: [
        {
          Description: str(doc.description) ?? `${label} ${doc.number}`,
          Quantity: 1,
          UnitAmount: Number(doc.amount),
          AccountCode: str(c.config.sales_account_code),
          ...(taxType ? { TaxType: taxType } : {}),
        },
      ],
    };
  };

  /** The booked invoice's InvoiceID by its number (`GET Invoices?InvoiceNumbers=`), voided ones aside. */
  async function invoiceId(d: TargetDocument, number: string): Promise<string | BookingResult[]> {
    const res = await authorized(token, c, settings.timeoutMs, (accessToken) => [
      `${api}/Invoices?InvoiceNumbers=${encodeURIComponent(number)}`,
      { headers: headers(accessToken) },
    ]);
    const answer = await answerOf(d, res, xeroWords);
    if (!answer.ok) return answer.result;
    const found = rows(answer.body.Invoices).find(
      (i) =>
        i.Type === 'ACCREC' && i.InvoiceNumber === number && i.Status !== 'VOIDED' && i.Status !== 'DELETED',
    );
    return found
      ? String(found.InvoiceID)
      : failed(
          d,
          'invoice_not_booked',
          `invoice ${number} is not booked in Xero yet: the document waits for it`,
        );
  }

  /** A 200 whose item still has errors (Xero's per-item `HasErrors`) is a refusal in Xero's words. */
  const itemOf = (d: TargetDocument, body: Record<string, unknown>, list: string, id: string) => {
    const item = rows(body[list])[0];
    if (item && str(item[id]) && !item.HasErrors && !item.HasValidationErrors) return String(item[id]);
    const words = rows(item?.ValidationErrors)
      .map((v) => String(v.Message))
      .join('; ');
    return failed(d, 'validation_rejected', words || `Xero booked no ${list}`);
  };

  return {
    // batch_size 1 (the declaration): one document, one Idempotency-Key per call.
    async book(docs) {
      const d = docs[0]!;
      const doc = d.document;
      const kind = kindOf(d);
      const contact = { Name: str(doc.counterparty) ?? doc.number };
      if (kind === 'invoice') {
        const answer = await put(d, 'Invoices', d.idempotency_key, {
          Invoices: [
            {
              Type: 'ACCREC',
              InvoiceNumber: doc.number,
              Contact: contact,
              Date: str(doc.issued_on),
              DueDate: str(doc.due_on),
              CurrencyCode: doc.currency,
              Status: str(c.config.invoice_status) ?? 'AUTHORISED',
              ...lineOf(d, 'Invoice'),
            },
          ],
        });
        if (!answer.ok) return answer.result;
        const id = itemOf(d, answer.body, 'Invoices', 'InvoiceID');
        return typeof id === 'string' ? [{ index: d.index, ok: true, external_id: id }] : id;
      }
      const number = str(doc.invoice_number);
      if (kind === 'payment' && !number)
        return failed(
          d,
          'validation_rejected',
          'a payment is booked against its invoice: the document names none (applies_to)',
        );
      if (kind === 'payment' && !str(c.config.payment_account_code))
        return failed(
          d,
          'not_configured',
          "the connection's config has no payment_account_code (the Xero account payments are received into)",
        );
      const invoice = number ? await invoiceId(d, number) : undefined;
      if (typeof invoice === 'object') return invoice;

      if (kind === 'payment') {
        const answer = await put(d, 'Payments', d.idempotency_key, {
          Payments: [
            {
              Invoice: { InvoiceID: invoice },
              Account: { Code: str(c.config.payment_account_code) },
              Date: str(doc.issued_on),
              Amount: Number(doc.amount),
              Reference: doc.number,
            },
          ],
        });
        if (!answer.ok) return answer.result;
        const id = itemOf(d, answer.body, 'Payments', 'PaymentID');
        return typeof id === 'string' ? [{ index: d.index, ok: true, external_id: id }] : id;
      }

      const answer = await put(d, 'CreditNotes', d.idempotency_key, {
        CreditNotes: [
          {
            Type: 'ACCRECCREDIT',
            CreditNoteNumber: doc.number,
            Contact: contact,
            Date: str(doc.issued_on),
            CurrencyCode: doc.currency,
            // Allocation needs an authorised credit note.
            Status: 'AUTHORISED',
            ...lineOf(d, 'Credit note'),
          },
        ],
      });
      if (!answer.ok) return answer.result;
      const id = itemOf(d, answer.body, 'CreditNotes', 'CreditNoteID');
      if (typeof id !== 'string') return id;
      if (invoice) {
        // Its own key: a retry after a lost answer replays the credit note by the document's key
        // and this allocation by its own, so neither is made twice.
        const allocated = await put(
          d,
          `CreditNotes/${id}/Allocations`,
          derivedKey(d.idempotency_key, 'allocation', 128),
          {
            Allocations: [
              { Invoice: { InvoiceID: invoice }, Amount: Number(doc.amount), Date: str(doc.issued_on) },
            ],
          },
        );
        if (!allocated.ok) return allocated.result;
      }
      return [{ index: d.index, ok: true, external_id: id }];
    },
  };
}
