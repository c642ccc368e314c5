import type { AccountingTarget, BookingResult, TargetDocument } from '#shared/domain/accounting/ports';
import type { ErrorCode } from '#shared/domain/accounting/error-classes';
import type { Connection } from '#shared/domain/integrations/ports';
import {
  QBO_DOC_NUMBER_MAX,
  QBO_MINOR_VERSION,
  xeroLineAmountTypes,
} from '#shared/domain/integrations/adapters/booking-rules';
import type { OAuthSettings } from '#functions/config';
import { authorized, errorOf, retryAfterOf, str, type TokenFor } from './oauth-calls';
import { oauthEndpoints } from './oauth-provider';

/**
 * The export clients of the two OAuth 2 accounting adapters, in the shapes their providers document
 * (shared/domain/integrations/adapters/xero.ts and quickbooks-online.ts; docs/connecting-accounting.md
 * cites the references). Each document type is booked as itself: Xero `Invoices` (ACCREC),
 * `CreditNotes` (ACCRECCREDIT, allocated to its invoice) and `Payments` (against its invoice's
 * InvoiceID); QuickBooks `invoice`, `creditmemo` (applied to its invoice) and `payment` (its
 * `Line[].LinkedTxn` the invoice). A 401 refreshes the token once and repeats the call once; the
 * token's own failures (a refused refresh) end the document's call. A refusal carries the
 * provider's own message (never a token: only the answer's error fields are read).
 */

export type { TokenFor };

type Kind = 'invoice' | 'credit_note' | 'payment';
const kindOf = (d: TargetDocument): Kind =>
  d.document.document_type === 'payment' || d.document.document_type === 'credit_note'
    ? d.document.document_type
    : 'invoice';

const MESSAGE_MAX = 500;

const failed = (
  d: TargetDocument,
  error: ErrorCode,
  message?: string,
  retryAfter?: number,
): BookingResult[] => [
  {
    index: d.index,
    ok: false,
    error,
    ...(retryAfter === undefined ? {} : { retry_after_seconds: retryAfter }),
    ...(message ? { message: message.slice(0, MESSAGE_MAX) } : {}),
  },
];

/** What a provider said in an error answer, read by `words`; undefined when the body is not JSON. */
async function said(res: Response, words: (body: Record<string, unknown>) => string | undefined) {
  try {
    return words((await res.json()) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

type Answer = { ok: true; body: Record<string, unknown> } | { ok: false; result: BookingResult[] };

/** One create call's answer: its body, or the document's failure with the provider's words. */
async function answerOf(
  d: TargetDocument,
  res: Response | { error: ErrorCode },
  words: (body: Record<string, unknown>) => string | undefined,
): Promise<Answer> {
  if ('error' in res) return { ok: false, result: failed(d, res.error) };
  const error = errorOf(res);
  if (error) return { ok: false, result: failed(d, error, await said(res, words), retryAfterOf(res)) };
  return { ok: true, body: (await res.json()) as Record<string, unknown> };
}

type Rows = Record<string, unknown>[];
const rows = (v: unknown): Rows => (Array.isArray(v) ? (v as Rows) : []);

/**
 * Xero's words: a `ValidationException` lists `Elements[].ValidationErrors[].Message`; other
 * errors carry `Message` or (401/403) `Detail`.
 */
export const xeroWords = (body: Record<string, unknown>): string | undefined => {
  const listed = rows(body.Elements).flatMap((e) => rows(e.ValidationErrors).map((v) => String(v.Message)));
  if (listed.length) return listed.join('; ');
  return str(body.Message) ?? str(body.Detail);
};

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

/** A second call's key, derived from the document's: its retry replays it as the first's does. */
const derivedKey = (key: string, suffix: string, max: number) =>
  `${key.slice(0, max - suffix.length - 1)}-${suffix}`;

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
