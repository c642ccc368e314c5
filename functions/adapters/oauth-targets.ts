import type { AccountingTarget, BookingResult, TargetDocument } from '#shared/domain/accounting/ports';
import type { ErrorCode } from '#shared/domain/accounting/error-classes';
import type { Connection } from '#shared/domain/integrations/ports';
import type { OAuthSettings } from '#functions/config';
import { authorized, errorOf, retryAfterOf, str, type TokenFor } from './oauth-calls';
import { oauthEndpoints } from './oauth-provider';

/**
 * The export clients of the two OAuth 2 accounting adapters, in the shapes their providers document
 * (shared/domain/integrations/adapters/xero.ts and quickbooks-online.ts; docs/connecting-accounting.md
 * cites the references): Xero's `PUT /Invoices` with `Idempotency-Key` and `xero-tenant-id`,
 * QuickBooks' `POST /invoice?requestid=` and its query endpoint. A 401 refreshes the token once
 * and repeats the call once; the token's own failures (a refused refresh) end the document's call.
 */

export type { TokenFor };

const failedAll = (docs: TargetDocument[], error: ErrorCode, retryAfter?: number): BookingResult[] =>
  docs.map((d) => ({
    index: d.index,
    ok: false,
    error,
    ...(retryAfter === undefined ? {} : { retry_after_seconds: retryAfter }),
  }));

export function xeroTarget(settings: OAuthSettings, token: TokenFor, c: Connection): AccountingTarget {
  const api = oauthEndpoints(settings, 'xero').api;
  return {
    async book(docs) {
      // batch_size 1 (the declaration): one invoice, one Idempotency-Key per call.
      const [d] = docs;
      const doc = d!.document;
      const res = await authorized(token, c, settings.timeoutMs, (accessToken) => [
        `${api}/Invoices?summarizeErrors=false`,
        {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${accessToken}`,
            'xero-tenant-id': String(c.config.organisation_id ?? ''),
            'idempotency-key': d!.idempotency_key,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify({
            Invoices: [
              {
                Type: 'ACCREC',
                InvoiceNumber: doc.number,
                Contact: { Name: str(doc.counterparty) ?? doc.number },
                Date: str(doc.issued_on),
                DueDate: str(doc.due_on),
                CurrencyCode: doc.currency,
                LineAmountTypes: str(c.config.line_amount_types) ?? 'NoTax',
                Status: str(c.config.invoice_status) ?? 'AUTHORISED',
                LineItems: [
                  {
                    Description: str(doc.description) ?? `Invoice ${doc.number}`,
                    Quantity: 1,
                    UnitAmount: Number(doc.amount),
                    AccountCode: str(c.config.sales_account_code),
                  },
                ],
              },
            ],
          }),
        },
      ]);
      if ('error' in res) return failedAll(docs, res.error);
      const error = errorOf(res);
      if (error) {
        await res.body?.cancel();
        return failedAll(docs, error, retryAfterOf(res));
      }
      const body = (await res.json()) as {
        Invoices?: { InvoiceID?: string; HasErrors?: boolean; ValidationErrors?: unknown[] }[];
      };
      const invoice = body.Invoices?.[0];
      if (!invoice?.InvoiceID || invoice.HasErrors) return failedAll(docs, 'validation_rejected');
      return [{ index: d!.index, ok: true, external_id: invoice.InvoiceID }];
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
  return {
    async book(docs) {
      const [d] = docs;
      const doc = d!.document;
      const res = await authorized(token, c, settings.timeoutMs, (accessToken) => [
        `${company}/invoice?requestid=${encodeURIComponent(d!.idempotency_key.slice(0, 50))}`,
        {
          method: 'POST',
          headers: headers(accessToken),
          body: JSON.stringify({
            DocNumber: doc.number.slice(0, 21),
            TxnDate: str(doc.issued_on),
            DueDate: str(doc.due_on),
            CurrencyRef: { value: doc.currency },
            CustomerRef: { value: String(c.config.customer_id ?? '') },
            Line: [
              {
                Amount: Number(doc.amount),
                DetailType: 'SalesItemLineDetail',
                SalesItemLineDetail: {
                  ItemRef: { value: String(c.config.item_id ?? '') },
                  Qty: 1,
                  UnitPrice: Number(doc.amount),
                },
              },
            ],
          }),
        },
      ]);
      if ('error' in res) return failedAll(docs, res.error);
      const error = errorOf(res);
      if (error) {
        await res.body?.cancel();
        return failedAll(docs, error, retryAfterOf(res));
      }
      const body = (await res.json()) as { Invoice?: { Id?: string }; Fault?: unknown };
      if (!body.Invoice?.Id) return failedAll(docs, 'validation_rejected');
      return [{ index: d!.index, ok: true, external_id: body.Invoice.Id }];
    },

    async lookup(d) {
      const number = d.document.number.slice(0, 21).replace(/'/g, "\\'");
      const query = `select * from Invoice where DocNumber = '${number}'`;
      const res = await authorized(token, c, settings.timeoutMs, (accessToken) => [
        `${company}/query?query=${encodeURIComponent(query)}`,
        { headers: headers(accessToken) },
      ]);
      if ('error' in res) return { error: res.error };
      const error = errorOf(res);
      if (error) {
        await res.body?.cancel();
        return { error };
      }
      const body = (await res.json()) as { QueryResponse?: { Invoice?: { Id: string }[] } };
      const found = body.QueryResponse?.Invoice?.[0];
      return found ? String(found.Id) : null;
    },
  };
}
