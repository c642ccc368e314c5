import type {
  AccountingTarget,
  AccountingTargets,
  BookingResult,
  TargetDocument,
} from '#shared/domain/accounting/ports';
import { classifyTargetStatus, type ErrorCode } from '#shared/domain/accounting/error-classes';
import type { Connection, ConnectionSecret } from '#shared/domain/integrations/ports';
import { sha256 } from '#shared/kernel/secrets';
import type { OAuthSettings, ProviderSettings } from '#functions/config';
import type { TokenFor } from './oauth-calls';
import { quickbooksTarget } from './quickbooks-target';
import { xeroTarget } from './xero-target';

/**
 * The clients of the two accounting adapters (shared/domain/integrations/adapters/ledgerly.ts and
 * tallybook.ts): plain HTTPS calls to the configured base URL, one attempt each within the
 * provider timeout (retries are the queue's). The local runtime points the base URLs at its
 * loopback sandbox, which answers like the real systems.
 */

const retryAfterOf = (res: Response): number | undefined => {
  const value = res.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
};

/** A failed call's result for each of its documents. */
const failedAll = (docs: TargetDocument[], error: ErrorCode, retryAfter?: number): BookingResult[] =>
  docs.map((d) => ({
    index: d.index,
    ok: false,
    error,
    ...(retryAfter === undefined ? {} : { retry_after_seconds: retryAfter }),
  }));

const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));

/** The path segment of a document type's collection (`credit_note` -> `credit-notes`). */
const collection = (type: unknown) => `${String(type ?? 'invoice').replace('_', '-')}s`;

function ledgerly(
  baseUrl: string,
  timeoutMs: number,
  config: Connection['config'],
  secret: ConnectionSecret,
): AccountingTarget {
  const call = (path: string, init: RequestInit) =>
    fetch(`${baseUrl}${path}`, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });

  /** An access token per run (client credentials); never stored. */
  let token: Promise<Response> | undefined;
  const accessToken = () =>
    (token ??= call('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: secret.client_id ?? '',
        client_secret: secret.client_secret ?? '',
      }),
    }));

  return {
    async book(docs) {
      const auth = await accessToken();
      if (!auth.ok) {
        token = undefined;
        return failedAll(docs, classifyTargetStatus(auth.status)!, retryAfterOf(auth));
      }
      const { access_token } = (await auth.clone().json()) as { access_token: string };
      const type = docs[0]!.document.document_type;
      const res = await call(`/api/v2/${collection(type)}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${access_token}`,
          'ledgerly-organisation': String(config.organisation_id ?? ''),
          // One key per call, derived from its documents' keys; each item also carries its own.
          'idempotency-key':
            docs.length === 1
              ? docs[0]!.idempotency_key
              : `ops-${sha256(docs.map((d) => d.idempotency_key).join(','))}`,
        },
        body: JSON.stringify({
          Items: docs.map((d) => ({
            IdempotencyKey: d.idempotency_key,
            InvoiceNumber: d.document.number,
            Contact: { Name: str(d.document.counterparty) },
            Date: str(d.document.issued_on),
            DueDate: str(d.document.due_on),
            CurrencyCode: d.document.currency,
            Total: d.document.amount,
            AccountCode: str(config.sales_account_code),
          })),
        }),
      });
      const error = classifyTargetStatus(res.status);
      if (error) {
        await res.body?.cancel();
        return failedAll(docs, error, retryAfterOf(res));
      }
      const body = (await res.json()) as {
        Items?: { IdempotencyKey: string; Status: string; Id?: string; Error?: number }[];
      };
      const byKey = new Map((body.Items ?? []).map((i) => [i.IdempotencyKey, i]));
      return docs.map((d): BookingResult => {
        const item = byKey.get(d.idempotency_key);
        if (item?.Status === 'OK' && item.Id) return { index: d.index, ok: true, external_id: item.Id };
        return {
          index: d.index,
          ok: false,
          error: classifyTargetStatus(item?.Error ?? 500) ?? 'target_unavailable',
        };
      });
    },
  };
}

function tallybook(
  baseUrl: string,
  timeoutMs: number,
  config: Connection['config'],
  secret: ConnectionSecret,
): AccountingTarget {
  const company = `/v1/companies/${encodeURIComponent(String(config.company_id ?? ''))}`;
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${company}${path}`, {
      ...init,
      headers: { 'x-api-key': secret.api_key ?? '', ...(init.headers as Record<string, string>) },
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });

  return {
    async book(docs) {
      // batch_size 1: the worker sends one document per call.
      const [d] = docs;
      const res = await call(`/${collection(d!.document.document_type)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          doc_no: d!.document.number,
          party_name: str(d!.document.counterparty),
          gross_total: d!.document.amount,
          ccy: d!.document.currency,
          doc_date: str(d!.document.issued_on),
        }),
      });
      const error = classifyTargetStatus(res.status);
      if (error) {
        await res.body?.cancel();
        return failedAll(docs, error, retryAfterOf(res));
      }
      const { id } = (await res.json()) as { id: string };
      return [{ index: d!.index, ok: true, external_id: String(id) }];
    },

    async lookup(d) {
      const type = String(d.document.document_type ?? 'invoice');
      const res = await call(
        `/documents?number=${encodeURIComponent(d.document.number)}&type=${encodeURIComponent(type)}`,
      );
      const error = classifyTargetStatus(res.status);
      if (error) {
        await res.body?.cancel();
        return { error };
      }
      const { items } = (await res.json()) as { items: { id: string }[] };
      return items[0] ? String(items[0].id) : null;
    },
  };
}

/**
 * The client of each accounting adapter the service speaks to, by adapter key; the OAuth 2 ones
 * (Xero, QuickBooks Online) with the workers' token source, which refreshes as needed.
 */
export function accountingTargets(
  settings: ProviderSettings,
  oauth?: { settings: OAuthSettings; token: TokenFor },
): AccountingTargets {
  const { ledgerly: ledgerlyUrl, tallybook: tallybookUrl } = settings.accountingApiUrls;
  return {
    open(connection, secret) {
      if (!secret) return undefined;
      switch (connection.adapter_key) {
        case 'xero':
          return oauth && xeroTarget(oauth.settings, oauth.token, connection);
        case 'quickbooks_online':
          return oauth && quickbooksTarget(oauth.settings, oauth.token, connection);
        case 'ledgerly':
          return ledgerly(ledgerlyUrl, settings.timeoutMs, connection.config, secret);
        case 'tallybook':
          return tallybook(tallybookUrl, settings.timeoutMs, connection.config, secret);
        default:
          return undefined;
      }
    },
  };
}
