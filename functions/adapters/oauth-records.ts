import type { Connection, ProviderRecord, ProviderRecords } from '#shared/domain/integrations/ports';
import type { OAuthSettings } from '#functions/config';
import { QBO_MINOR_VERSION } from '#shared/domain/integrations/adapters/booking-rules';
import { authorized, errorOf, retryAfterOf, str, type TokenFor } from './oauth-calls';
import { oauthEndpoints } from './oauth-provider';

/**
 * The reconciliation's reads of the OAuth 2 adapters' providers (the internal worker's), one page
 * a call, as the providers page: Xero `GET Invoices|Payments?page=<n>` (100 a page; a shorter page
 * is the last), QuickBooks `select * from Invoice|Payment startposition <n> maxresults 1000` (a
 * page of fewer than 1,000 rows is the last). The cursor names the entity and the position:
 * `Invoices:3`, `Payment:1001`. A 429 is an answer with its Retry-After (a minute when it names
 * none), so the run continues after it instead of failing.
 */

export const XERO_PAGE_SIZE = 100;
export const QUICKBOOKS_PAGE_SIZE = 1000;
const DEFAULT_WAIT_SECONDS = 60;

const money = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(2) : undefined);

type Row = Record<string, unknown>;

const XERO_ORDER = ['Invoices', 'Payments'] as const;
const QUICKBOOKS_ORDER = ['Invoice', 'Payment'] as const;

const parse = <E extends string>(order: readonly E[], cursor: string | undefined, first: number) => {
  const [entity, position] = (cursor ?? '').split(':');
  const n = Number(position);
  return order.includes(entity as E) && Number.isInteger(n) && n >= first
    ? { entity: entity as E, position: n }
    : { entity: order[0]!, position: first };
};

/** The cursor after a page: the same entity further on, or the next entity's start, or the end. */
const after = <E extends string>(
  order: readonly E[],
  entity: E,
  more: boolean,
  next: number,
  first: number,
) => {
  if (more) return `${entity}:${next}`;
  const following = order[order.indexOf(entity) + 1];
  return following ? `${following}:${first}` : undefined;
};

export async function oauthRecords(
  settings: OAuthSettings,
  token: TokenFor,
  c: Connection,
  cursor?: string,
): Promise<ProviderRecords> {
  const get = async (url: string, extra: Record<string, string>) => {
    const res = await authorized(token, c, settings.timeoutMs, (accessToken) => [
      url,
      { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', ...extra } },
    ]);
    if ('error' in res) return { ok: false as const, reason: res.cause ?? res.error };
    if (!res.ok) {
      await res.body?.cancel();
      const reason = errorOf(res) ?? 'provider_error';
      return res.status === 429
        ? { ok: false as const, reason, retry_after_seconds: retryAfterOf(res) ?? DEFAULT_WAIT_SECONDS }
        : { ok: false as const, reason };
    }
    return { ok: true as const, body: (await res.json()) as Row };
  };
  const records: ProviderRecord[] = [];
  const push = (r: Partial<ProviderRecord>) => {
    if (r.external_id && r.number && r.amount && r.currency && r.document_type)
      records.push(r as ProviderRecord);
  };

  if (c.adapter_key === 'xero') {
    const { entity, position: page } = parse(XERO_ORDER, cursor, 1);
    const api = oauthEndpoints(settings, 'xero').api;
    const answer = await get(`${api}/${entity}?page=${page}`, {
      'xero-tenant-id': String(c.config.organisation_id ?? ''),
    });
    if (!answer.ok) return answer;
    const rows = (answer.body[entity] ?? []) as Row[];
    for (const r of rows) {
      if (entity === 'Invoices') {
        // Bills (ACCPAY) are the organisation's purchases, never a document this service books.
        if (r.Type === 'ACCPAY' || r.Status === 'DELETED' || r.Status === 'VOIDED') continue;
        push({
          external_id: str(r.InvoiceID),
          document_type: 'invoice',
          number: str(r.InvoiceNumber),
          amount: money(r.Total),
          currency: str(r.CurrencyCode),
        });
        continue;
      }
      if (r.Status === 'DELETED') continue;
      const invoice = (r.Invoice ?? {}) as Row;
      push({
        external_id: str(r.PaymentID),
        document_type: 'payment',
        // Reference is optional (empty in Xero's own example): the payment is matched by its invoice.
        number: str(r.Reference) || str(r.PaymentID),
        amount: money(r.Amount),
        currency: str(invoice.CurrencyCode),
        invoice_external_id: str(invoice.InvoiceID),
      });
    }
    // Xero's newer answers say how many pages there are; a full page otherwise means there may be more.
    const pageCount = Number((answer.body.pagination as Row | undefined)?.pageCount);
    const more = Number.isInteger(pageCount) ? page < pageCount : rows.length >= XERO_PAGE_SIZE;
    const next = after(XERO_ORDER, entity, more, page + 1, 1);
    return { ok: true, records, ...(next ? { next } : {}) };
  }

  const { entity, position: start } = parse(QUICKBOOKS_ORDER, cursor, 1);
  const company = `${oauthEndpoints(settings, 'quickbooks_online').api}/${encodeURIComponent(String(c.config.realm_id ?? ''))}`;
  const query = `select * from ${entity} startposition ${start} maxresults ${QUICKBOOKS_PAGE_SIZE}`;
  const answer = await get(
    `${company}/query?${new URLSearchParams({ query, minorversion: QBO_MINOR_VERSION }).toString()}`,
    {},
  );
  if (!answer.ok) return answer;
  const rows = ((answer.body.QueryResponse as Row | undefined)?.[entity] ?? []) as Row[];
  for (const r of rows) {
    const currency = str((r.CurrencyRef as Row | undefined)?.value);
    if (entity === 'Invoice') {
      push({
        external_id: str(r.Id),
        document_type: 'invoice',
        number: str(r.DocNumber),
        amount: money(r.TotalAmt),
        currency,
      });
      continue;
    }
    // A payment of nothing whose lines link a credit memo is how a credit memo is applied to its
    // invoice (the export books credit notes so): no money moved, so it is no payment to match.
    const linked = ((r.Line ?? []) as Row[]).flatMap((line) => (line.LinkedTxn ?? []) as Row[]);
    if (Number(r.TotalAmt) === 0 && linked.some((t) => t.TxnType === 'CreditMemo')) continue;
    // A payment's lines each apply an amount to a transaction (LinkedTxn, TxnType Invoice).
    const lines = ((r.Line ?? []) as Row[]).flatMap((line) =>
      ((line.LinkedTxn ?? []) as Row[])
        .filter((t) => t.TxnType === 'Invoice')
        .map((t) => ({ invoice: str(t.TxnId), amount: money(line.Amount) })),
    );
    const number = str(r.PaymentRefNum) || str(r.Id);
    if (lines.length <= 1)
      push({
        external_id: str(r.Id),
        document_type: 'payment',
        number,
        amount: money(r.TotalAmt),
        currency,
        ...(lines[0]?.invoice ? { invoice_external_id: lines[0].invoice } : {}),
      });
    // One payment across several invoices: one record per invoice it pays, with that line's amount.
    else
      for (const l of lines)
        push({
          external_id: `${str(r.Id)}:${l.invoice}`,
          document_type: 'payment',
          number,
          amount: l.amount,
          currency,
          ...(l.invoice ? { invoice_external_id: l.invoice } : {}),
        });
  }
  const next = after(
    QUICKBOOKS_ORDER,
    entity,
    rows.length >= QUICKBOOKS_PAGE_SIZE,
    start + QUICKBOOKS_PAGE_SIZE,
    1,
  );
  return { ok: true, records, ...(next ? { next } : {}) };
}
