import type { AccountingTarget, BookingResult, TargetDocument } from '#shared/domain/accounting/ports';
import type { ErrorCode } from '#shared/domain/accounting/error-classes';
import type { Connection } from '#shared/domain/integrations/ports';
import { QBO_DOC_NUMBER_MAX, QBO_MINOR_VERSION } from '#shared/domain/integrations/adapters/booking-rules';
import type { OAuthSettings } from '#functions/config';
import { authorized, str, type TokenFor } from './oauth-calls';
import { oauthEndpoints } from './oauth-provider';
import { answerOf, derivedKey, failed, kindOf, type Rows, rows } from './oauth-target-answers';

/**
 * The export client of the QuickBooks Online adapter, in the shapes Intuit documents
 * (shared/domain/integrations/adapters/quickbooks-online.ts; docs/connecting-accounting.md cites
 * the references). Each document type is booked as itself: `invoice`, `creditmemo` (applied to
 * its invoice) and `payment` (its `Line[].LinkedTxn` the invoice). A 401 refreshes the token once
 * and repeats the call once; the token's own failures (a refused refresh) end the document's call.
 * A refusal carries Intuit's own message.
 */

/** Intuit's words: each `Fault.Error[]` as `Message: Detail`, naming its `element` when it has one. */
export const quickbooksWords = (body: Record<string, unknown>): string | undefined => {
  const errors = rows((body.Fault as Record<string, unknown> | undefined)?.Error);
  if (!errors.length) return undefined;
  return errors
    .map((e) => {
      const detail = str(e.Detail) && e.Detail !== e.Message ? `: ${String(e.Detail)}` : '';
      const element = str(e.element) ? ` (element ${String(e.element)})` : '';
      return `${String(e.Message)}${detail}${element}`;
    })
    .join('; ');
};

export function quickbooksTarget(settings: OAuthSettings, token: TokenFor, c: Connection): AccountingTarget {
  const company = `${oauthEndpoints(settings, 'quickbooks_online').api}/${encodeURIComponent(String(c.config.realm_id ?? ''))}`;
  const headers = (accessToken: string) => ({
    authorization: `Bearer ${accessToken}`,
    accept: 'application/json',
    'content-type': 'application/json',
  });
  /** Every call pins the minor version, as Intuit's SDKs do (booking-rules.ts). */
  const url = (path: string, params: Record<string, string>) =>
    `${company}/${path}?${new URLSearchParams({ ...params, minorversion: QBO_MINOR_VERSION }).toString()}`;
  const create = (d: TargetDocument, entity: string, requestId: string, body: unknown) =>
    authorized(token, c, settings.timeoutMs, (accessToken) => [
      url(entity, { requestid: requestId.slice(0, 50) }),
      { method: 'POST', headers: headers(accessToken), body: JSON.stringify(body) },
    ]).then((res) => answerOf(d, res, quickbooksWords));

  /** One query's rows of an entity, or the failure. */
  async function query(
    d: TargetDocument,
    entity: string,
    where: string,
  ): Promise<Rows | { error: ErrorCode; message?: string }> {
    const res = await authorized(token, c, settings.timeoutMs, (accessToken) => [
      url('query', { query: `select * from ${entity} where ${where}` }),
      { headers: headers(accessToken) },
    ]);
    const answer = await answerOf(d, res, quickbooksWords);
    if (!answer.ok) {
      const r = answer.result[0] as Extract<BookingResult, { ok: false }>;
      return { error: r.error, ...(r.message ? { message: r.message } : {}) };
    }
    return rows((answer.body.QueryResponse as Record<string, unknown> | undefined)?.[entity]);
  }
  // Intuit's query language escapes a quote in a value with a backslash.
  const quoted = (v: string) => `'${v.replace(/'/g, "\\'")}'`;

  const lineOf = (doc: TargetDocument['document']) => [
    {
      Amount: Number(doc.amount),
      DetailType: 'SalesItemLineDetail',
      SalesItemLineDetail: {
        ItemRef: { value: String(c.config.item_id ?? '') },
        Qty: 1,
        UnitPrice: Number(doc.amount),
      },
    },
  ];
  const booked = (d: TargetDocument, body: Record<string, unknown>, entity: string): BookingResult[] => {
    const id = str((body[entity] as Record<string, unknown> | undefined)?.Id);
    return id
      ? [{ index: d.index, ok: true, external_id: id }]
      : failed(d, 'validation_rejected', quickbooksWords(body) ?? `QuickBooks booked no ${entity}`);
  };

  return {
    async book(docs) {
      const d = docs[0]!;
      const doc = d.document;
      const kind = kindOf(d);
      // Never cut: a number QuickBooks cannot keep whole is refused, no call made (booking-rules.ts).
      if (doc.number.length > QBO_DOC_NUMBER_MAX)
        return failed(
          d,
          'validation_rejected',
          `QuickBooks Online keeps a document number to ${QBO_DOC_NUMBER_MAX} characters; "${doc.number}" has ${doc.number.length}: give the document a shorter number`,
        );
      const common = { TxnDate: str(doc.issued_on), CurrencyRef: { value: doc.currency } };
      if (kind === 'invoice') {
        const answer = await create(d, 'invoice', d.idempotency_key, {
          DocNumber: doc.number,
          DueDate: str(doc.due_on),
          ...common,
          CustomerRef: { value: String(c.config.customer_id ?? '') },
          Line: lineOf(doc),
        });
        return answer.ok ? booked(d, answer.body, 'Invoice') : answer.result;
      }
      const number = str(doc.invoice_number);
      if (kind === 'payment' && !number)
        return failed(
          d,
          'validation_rejected',
          'a payment is booked against its invoice: the document names none (applies_to)',
        );
      let invoice: Record<string, unknown> | undefined;
      if (number) {
        const found = await query(d, 'Invoice', `DocNumber = ${quoted(number)}`);
        if (!Array.isArray(found)) return failed(d, found.error, found.message);
        invoice = found[0];
        if (!invoice)
          return failed(
            d,
            'invoice_not_booked',
            `invoice ${number} is not booked in QuickBooks yet: the document waits for it`,
          );
      }
      // The customer the invoice was booked to: a payment or credit applies within one customer.
      const customer = (invoice?.CustomerRef as Record<string, unknown> | undefined) ?? {
        value: String(c.config.customer_id ?? ''),
      };
      const invoiceLink = (amount: number) => ({
        Amount: amount,
        LinkedTxn: [{ TxnId: String(invoice!.Id), TxnType: 'Invoice' }],
      });

      if (kind === 'payment') {
        const answer = await create(d, 'payment', d.idempotency_key, {
          ...common,
          CustomerRef: customer,
          TotalAmt: Number(doc.amount),
          PaymentRefNum: doc.number,
          ...(str(c.config.deposit_account_id)
            ? { DepositToAccountRef: { value: str(c.config.deposit_account_id) } }
            : {}),
          Line: [invoiceLink(Number(doc.amount))],
        });
        return answer.ok ? booked(d, answer.body, 'Payment') : answer.result;
      }

      const memo = await create(d, 'creditmemo', d.idempotency_key, {
        DocNumber: doc.number,
        ...common,
        CustomerRef: customer,
        Line: lineOf(doc),
      });
      if (!memo.ok) return memo.result;
      const result = booked(d, memo.body, 'CreditMemo');
      const credited = result[0]!;
      if (!invoice || !credited.ok) return result;
      // Applied as Intuit links transactions: a payment of nothing whose lines link the invoice and
      // the credit memo; its own requestid, so a retry replays it rather than applying twice.
      const applied = await create(d, 'payment', derivedKey(d.idempotency_key, 'apply', 50), {
        ...common,
        CustomerRef: customer,
        TotalAmt: 0,
        Line: [
          invoiceLink(Number(doc.amount)),
          { Amount: Number(doc.amount), LinkedTxn: [{ TxnId: credited.external_id, TxnType: 'CreditMemo' }] },
        ],
      });
      return applied.ok ? result : applied.result;
    },

    // The lookup after an unknown outcome: invoices only (credit memos and payments resend with
    // the same requestid, adapters/quickbooks-online.ts).
    async lookup(d) {
      const found = await query(d, 'Invoice', `DocNumber = ${quoted(d.document.number)}`);
      if (!Array.isArray(found)) return { error: found.error };
      return found[0] ? String(found[0].Id) : null;
    },
  };
}
