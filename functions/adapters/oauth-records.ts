import type { Connection, ProviderRecord, ProviderRecords } from '#shared/domain/integrations/ports';
import type { OAuthSettings } from '#functions/config';
import { authorized, errorOf, str, type TokenFor } from './oauth-calls';
import { oauthEndpoints } from './oauth-provider';

/** The reconciliation's reads of the OAuth 2 adapters' providers (the internal worker's). */

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
