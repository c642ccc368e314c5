import type { AccountingTarget, BookingResult, TargetDocument } from '#shared/domain/accounting/ports';
import { classifyTargetStatus, type ErrorCode } from '#shared/domain/accounting/error-classes';
import type { Connection, ProviderRecord, ProviderRecords } from '#shared/domain/integrations/ports';
import type { AccessToken } from '#shared/domain/oauth/tokens';
import type { OAuthSettings } from '#functions/config';
import { oauthEndpoints } from './oauth-provider';

/**
 * The clients of the two OAuth 2 accounting adapters, in the shapes their providers document
 * (shared/domain/integrations/adapters/xero.ts and quickbooks-online.ts; docs/connecting-accounting.md
 * cites the references): Xero's `PUT /Invoices` with `Idempotency-Key` and `xero-tenant-id`,
 * QuickBooks' `POST /invoice?requestid=` and its query endpoint. A 401 refreshes the token once
 * and repeats the call once; the token's own failures (a refused refresh) end the document's call.
 */

export type TokenFor = (c: Connection, stale?: string) => Promise<AccessToken>;

const retryAfterOf = (res: Response): number | undefined => {
  const seconds = Number(res.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
};

const failedAll = (docs: TargetDocument[], error: ErrorCode, retryAfter?: number): BookingResult[] =>
  docs.map((d) => ({
    index: d.index,
    ok: false,
    error,
    ...(retryAfter === undefined ? {} : { retry_after_seconds: retryAfter }),
  }));

/** Xero's daily limit answers 429 with `X-Rate-Limit-Problem: day` (and Retry-After to the window). */
const errorOf = (res: Response): ErrorCode | undefined =>
  res.status === 429 && res.headers.get('x-rate-limit-problem')?.toLowerCase() === 'day'
    ? 'daily_limit_reached'
    : classifyTargetStatus(res.status);

const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));

/**
 * One authorized call: the token, the request, and on a 401 one refresh and one repeat. A token
 * that cannot be had is the call's error (`reauthorization_required`, ...).
 */
async function authorized(
  token: TokenFor,
  c: Connection,
  timeoutMs: number,
  request: (accessToken: string) => [string, RequestInit],
): Promise<Response | { error: ErrorCode }> {
  let t = await token(c);
  for (let attempt = 0; ; attempt += 1) {
    if (!t.ok) return { error: t.error };
    const [url, init] = request(t.token);
    const res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    if (res.status !== 401 || attempt > 0) return res;
    await res.body?.cancel();
    t = await token(c, t.token);
  }
}

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

const money = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(2) : undefined);

/** The provider's invoices and payments for reconciliation, as ProviderRecords; one page of each. */
export async function oauthRecords(
  settings: OAuthSettings,
  token: TokenFor,
  c: Connection,
): Promise<ProviderRecords> {
  const get = async (url: string, extra: Record<string, string>) => {
    const res = await authorized(token, c, settings.timeoutMs, (accessToken) => [
      url,
      { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', ...extra } },
    ]);
    if ('error' in res) return { ok: false as const, reason: res.error };
    if (!res.ok) {
      await res.body?.cancel();
      return { ok: false as const, reason: errorOf(res) ?? 'provider_error' };
    }
    return { ok: true as const, body: (await res.json()) as Record<string, unknown> };
  };
  const records: ProviderRecord[] = [];
  const push = (r: Partial<ProviderRecord>) => {
    if (r.external_id && r.number && r.amount && r.currency && r.document_type)
      records.push(r as ProviderRecord);
  };
  if (c.adapter_key === 'xero') {
    const api = oauthEndpoints(settings, 'xero').api;
    const tenant = { 'xero-tenant-id': String(c.config.organisation_id ?? '') };
    const invoices = await get(`${api}/Invoices?page=1`, tenant);
    if (!invoices.ok) return invoices;
    for (const i of (invoices.body.Invoices ?? []) as Record<string, unknown>[])
      push({
        external_id: str(i.InvoiceID),
        document_type: 'invoice',
        number: str(i.InvoiceNumber),
        amount: money(i.Total),
        currency: str(i.CurrencyCode),
      });
    const payments = await get(`${api}/Payments?page=1`, tenant);
    if (!payments.ok) return payments;
    for (const p of (payments.body.Payments ?? []) as Record<string, unknown>[]) {
      const invoice = (p.Invoice ?? {}) as Record<string, unknown>;
      push({
        external_id: str(p.PaymentID),
        document_type: 'payment',
        number: str(p.Reference),
        amount: money(p.Amount),
        currency: str(invoice.CurrencyCode),
      });
    }
    return { ok: true, records };
  }
  const company = `${oauthEndpoints(settings, 'quickbooks_online').api}/${encodeURIComponent(String(c.config.realm_id ?? ''))}`;
  for (const [entity, type, numberField] of [
    ['Invoice', 'invoice', 'DocNumber'],
    ['Payment', 'payment', 'PaymentRefNum'],
  ] as const) {
    const query = `select * from ${entity} startposition 1 maxresults 1000`;
    const answer = await get(`${company}/query?query=${encodeURIComponent(query)}`, {});
    if (!answer.ok) return answer;
    const rows = ((answer.body.QueryResponse as Record<string, unknown> | undefined)?.[entity] ??
      []) as Record<string, unknown>[];
    for (const r of rows)
      push({
        external_id: str(r.Id),
        document_type: type,
        number: str(r[numberField]),
        amount: money(r.TotalAmt),
        currency: str((r.CurrencyRef as Record<string, unknown> | undefined)?.value),
      });
  }
  return { ok: true, records };
}
