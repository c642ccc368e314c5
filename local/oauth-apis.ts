import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthProviderName, OAuthSandbox } from './oauth-sandbox';
import { SANDBOX_ORGANISATIONS } from './oauth-sandbox';

/**
 * Xero's Accounting API and QuickBooks Online's on loopback, in the shapes their references
 * document (docs/connecting-accounting.md): Xero `PUT|POST /api.xro/2.0/Invoices` (with
 * `Idempotency-Key`, `xero-tenant-id`, per-item `HasErrors`/`ValidationErrors`, a duplicate
 * InvoiceNumber refused), `GET Invoices|Payments`, and its limits (60 a minute, 5,000 a day; 429
 * with Retry-After and X-Rate-Limit-Problem); QuickBooks `POST /v3/company/{realm}/invoice`
 * (`requestid` replays the first answer, a duplicate DocNumber is Fault 6140), `GET query` and its
 * limit (500 a minute, 429). Reads page as documented: Xero `?page=<n>` by 100, QuickBooks
 * `STARTPOSITION`/`MAXRESULTS` (default 100, at most 1,000); payments carry their invoice as the
 * providers link it (`Payment.Invoice.InvoiceID`, `Line[].LinkedTxn[]`). `now` is the clock of
 * the limits, so tests move it rather than wait a minute.
 */

export interface Booked {
  provider: OAuthProviderName;
  id: string;
  number: string;
  amount: number;
  currency: string;
  key: string | undefined;
}

/** A payment the provider holds against one of its invoices (seeded by tests and the demo). */
export interface SandboxPayment {
  provider: OAuthProviderName;
  id: string;
  /** The provider's id of the invoice it pays. */
  invoice_id: string;
  amount: number;
  currency: string;
  /** Xero's optional `Reference`, QuickBooks' `PaymentRefNum`. */
  reference?: string;
}

/** A scripted answer to the next API call of a provider. */
export type ApiScript = { status: number; retryAfter?: number; problem?: 'minute' | 'day' | 'concurrent' };

const MINUTE_MS = 60_000;
export const XERO_LIMITS = { per_minute: 60, per_day: 5000, concurrent: 5 };
/** Intuit's per-realm limit; past it 429 (Intuit documents no Retry-After). */
export const QUICKBOOKS_LIMITS = { per_minute: 500 };
/** Xero's `page` of invoices or payments; QuickBooks' largest MAXRESULTS (its default is 100). */
export const PAGE_SIZES = { xero: 100, quickbooks_max: 1000, quickbooks_default: 100 };

export class OAuthApis {
  readonly booked: Booked[] = [];
  /** API calls (token calls excluded), with their answer's status. */
  readonly calls: {
    provider: OAuthProviderName;
    method: string;
    path: string;
    status: number;
    at: number;
  }[] = [];
  /** Payments each provider holds, read back by `GET Payments` / `select * from Payment`. */
  readonly payments: SandboxPayment[] = [];
  /** Calls counted against Xero's daily limit today (tests set it near the limit). */
  xeroDayUsed = 0;
  /** The sandbox's clock for its rate limits: tests move it instead of waiting a minute. */
  now: () => number = () => Date.now();
  private readonly scripts = new Map<OAuthProviderName, ApiScript[]>();
  private readonly replies = new Map<string, { status: number; body: unknown }>();

  constructor(private readonly oauth: OAuthSandbox) {}

  script(provider: OAuthProviderName, answers: ApiScript[]): void {
    this.scripts.set(provider, [...answers]);
  }

  /** Invoices the provider already holds (a large book for the reconciliation reads): their ids. */
  seedInvoices(
    provider: OAuthProviderName,
    invoices: { number: string; amount: number; currency: string }[],
  ): string[] {
    return invoices.map((i) => {
      const id = provider === 'xero' ? randomUUID() : String(100 + this.booked.length);
      this.booked.push({ provider, id, key: undefined, ...i });
      return id;
    });
  }

  /** A payment the provider holds against its invoice `invoice_id`. */
  seedPayment(payment: Omit<SandboxPayment, 'id'>): SandboxPayment {
    const p = {
      ...payment,
      id: payment.provider === 'xero' ? randomUUID() : String(5000 + this.payments.length),
    };
    this.payments.push(p);
    return p;
  }

  /** Calls of the last minute: what a provider's per-minute limit counts. */
  private lastMinute(provider: OAuthProviderName) {
    return this.calls.filter((c) => c.provider === provider && c.at > this.now() - MINUTE_MS);
  }

  bookingCount(provider: OAuthProviderName, number: string): number {
    return this.booked.filter((b) => b.provider === provider && b.number === number).length;
  }

  answer(
    provider: OAuthProviderName,
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    path: string,
    body: string,
  ) {
    const method = req.method ?? 'GET';
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      this.calls.push({ provider, method, path, status, at: this.now() });
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    };
    const scripted = this.scripts.get(provider)?.shift();
    if (scripted)
      return json(
        scripted.status,
        { Title: 'Scripted', Status: scripted.status },
        {
          ...(scripted.retryAfter ? { 'retry-after': String(scripted.retryAfter) } : {}),
          ...(scripted.problem ? { 'x-rate-limit-problem': scripted.problem } : {}),
        },
      );
    if (!this.oauth.authorized(req))
      return provider === 'xero'
        ? json(401, { Type: null, Title: 'Unauthorized', Status: 401, Detail: 'TokenExpired' })
        : json(401, {
            Fault: {
              Error: [{ Message: 'AuthenticationFailed', code: '3200' }],
              type: 'AuthenticationFault',
            },
          });
    return provider === 'xero'
      ? this.xero(req, url, path, body, json)
      : this.quickbooks(url, path, body, json);
  }

  private xero(
    req: IncomingMessage,
    url: URL,
    path: string,
    body: string,
    json: (status: number, value: unknown, headers?: Record<string, string>) => void,
  ) {
    if (req.headers['xero-tenant-id'] !== SANDBOX_ORGANISATIONS.xero.tenantId)
      return json(403, { Type: null, Title: 'Forbidden', Status: 403, Detail: 'AuthenticationUnsuccessful' });
    if (this.xeroDayUsed >= XERO_LIMITS.per_day) {
      const now = new Date();
      const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      return json(
        429,
        { Title: 'Too Many Requests' },
        {
          'retry-after': String(Math.ceil((tomorrow - now.getTime()) / 1000)),
          'x-rate-limit-problem': 'day',
        },
      );
    }
    const recent = this.lastMinute('xero');
    if (recent.length >= XERO_LIMITS.per_minute)
      return json(
        429,
        { Title: 'Too Many Requests' },
        {
          'retry-after': String(Math.max(1, Math.ceil((recent[0]!.at + MINUTE_MS - this.now()) / 1000))),
          'x-rate-limit-problem': 'minute',
        },
      );
    this.xeroDayUsed += 1;
    const method = req.method ?? 'GET';
    if (path === '/api.xro/2.0/Invoices' && (method === 'PUT' || method === 'POST')) {
      const key = req.headers['idempotency-key'] as string | undefined;
      const kept = key && this.replies.get(`xero:${key}`);
      if (kept) return json(kept.status, kept.body);
      const invoices = (
        (JSON.parse(body || '{}') as { Invoices?: Record<string, unknown>[] }).Invoices ?? []
      ).map((i) => {
        const number = String(i.InvoiceNumber ?? '');
        const line = ((i.LineItems as Record<string, unknown>[] | undefined) ?? [])[0] ?? {};
        if (!number || this.bookingCount('xero', number) > 0)
          return { ...i, HasErrors: true, ValidationErrors: [{ Message: 'Invoice # must be unique.' }] };
        const id = randomUUID();
        const amount = Number(line.UnitAmount ?? 0) * Number(line.Quantity ?? 1);
        this.booked.push({ provider: 'xero', id, number, amount, currency: String(i.CurrencyCode), key });
        return { ...i, InvoiceID: id, Total: amount, HasErrors: false };
      });
      const answer = { Id: randomUUID(), Status: 'OK', ProviderName: 'ops-platform', Invoices: invoices };
      if (key) this.replies.set(`xero:${key}`, { status: 200, body: answer });
      return json(200, answer);
    }
    // Xero pages its lists by `page` (1-based, 100 a page); without `page` it answers them all.
    const paged = <T>(all: T[]) => {
      const page = Number(url.searchParams.get('page'));
      if (!url.searchParams.has('page')) return all;
      const from = (Math.max(1, Math.trunc(page) || 1) - 1) * PAGE_SIZES.xero;
      return all.slice(from, from + PAGE_SIZES.xero);
    };
    const xeroInvoices = this.booked.filter((b) => b.provider === 'xero');
    if (path === '/api.xro/2.0/Invoices' && method === 'GET')
      return json(200, {
        Invoices: paged(xeroInvoices).map((b) => ({
          Type: 'ACCREC',
          InvoiceID: b.id,
          InvoiceNumber: b.number,
          Status: 'AUTHORISED',
          Total: b.amount,
          CurrencyCode: b.currency,
        })),
      });
    if (path === '/api.xro/2.0/Payments' && method === 'GET')
      return json(200, {
        Payments: paged(this.payments.filter((p) => p.provider === 'xero')).map((p) => {
          const invoice = xeroInvoices.find((b) => b.id === p.invoice_id);
          return {
            PaymentID: p.id,
            Date: '2026-01-31',
            Amount: p.amount,
            Reference: p.reference ?? '',
            Status: 'AUTHORISED',
            PaymentType: 'ACCRECPAYMENT',
            Invoice: {
              InvoiceID: p.invoice_id,
              InvoiceNumber: invoice?.number ?? '',
              CurrencyCode: p.currency,
            },
          };
        }),
      });
    return json(404, { Title: 'Not Found', Status: 404 });
  }

  private quickbooks(
    url: URL,
    path: string,
    body: string,
    json: (status: number, value: unknown, headers?: Record<string, string>) => void,
  ) {
    if (this.lastMinute('quickbooks_online').length >= QUICKBOOKS_LIMITS.per_minute)
      return json(429, {
        Fault: {
          Error: [{ Message: 'ThrottleExceeded', Detail: 'Request has been throttled', code: '3001' }],
          type: 'ThrottlingFault',
        },
      });
    const prefix = `/v3/company/${SANDBOX_ORGANISATIONS.quickbooks_online.realmId}`;
    if (!path.startsWith(`${prefix}/`))
      return json(403, {
        Fault: { Error: [{ Message: 'AuthorizationFailure', code: '3100' }], type: 'AuthorizationFault' },
      });
    const entity = path.slice(prefix.length + 1);
    if (entity === 'invoice') {
      const requestId = url.searchParams.get('requestid') ?? undefined;
      const kept = requestId && this.replies.get(`qbo:${requestId}`);
      if (kept) return json(kept.status, kept.body);
      const invoice = JSON.parse(body || '{}') as Record<string, unknown>;
      const number = String(invoice.DocNumber ?? '');
      const answer =
        number && this.bookingCount('quickbooks_online', number) > 0
          ? {
              status: 400,
              body: {
                Fault: {
                  Error: [{ Message: 'Duplicate Document Number Error', code: '6140' }],
                  type: 'ValidationFault',
                },
              },
            }
          : (() => {
              const id = String(100 + this.booked.length);
              const line = ((invoice.Line as Record<string, unknown>[] | undefined) ?? [])[0] ?? {};
              const currency = String(
                (invoice.CurrencyRef as Record<string, unknown> | undefined)?.value ?? 'USD',
              );
              this.booked.push({
                provider: 'quickbooks_online',
                id,
                number,
                amount: Number(line.Amount ?? 0),
                currency,
                key: requestId,
              });
              return {
                status: 200,
                body: {
                  Invoice: { ...invoice, Id: id, TotalAmt: Number(line.Amount ?? 0), SyncToken: '0' },
                  time: new Date().toISOString(),
                },
              };
            })();
      if (requestId) this.replies.set(`qbo:${requestId}`, answer);
      return json(answer.status, answer.body);
    }
    if (entity === 'query') {
      const query = url.searchParams.get('query') ?? '';
      const from = /from (Invoice|Payment)/i.exec(query)?.[1];
      // Intuit's query language escapes a quote in a value with a backslash.
      const doc = /DocNumber = '((?:\\'|[^'])*)'/.exec(query)?.[1]?.replace(/\\'/g, "'");
      // STARTPOSITION is 1-based; MAXRESULTS defaults to 100 and may be at most 1,000.
      const start = Number(/startposition\s+(\d+)/i.exec(query)?.[1] ?? 1);
      const max = Number(/maxresults\s+(\d+)/i.exec(query)?.[1] ?? PAGE_SIZES.quickbooks_default);
      if (start < 1 || max < 1 || max > PAGE_SIZES.quickbooks_max)
        return json(400, {
          Fault: {
            Error: [
              {
                Message: 'Error parsing query',
                Detail: `QueryParserError: MAXRESULTS must be 1 to ${PAGE_SIZES.quickbooks_max}, STARTPOSITION at least 1`,
                code: '4000',
              },
            ],
            type: 'ValidationFault',
          },
        });
      const all =
        from === 'Invoice'
          ? this.booked
              .filter((b) => b.provider === 'quickbooks_online' && (doc === undefined || b.number === doc))
              .map((b) => ({
                Id: b.id,
                DocNumber: b.number,
                TotalAmt: b.amount,
                CurrencyRef: { value: b.currency },
              }))
          : this.payments
              .filter((p) => p.provider === 'quickbooks_online')
              .map((p) => ({
                Id: p.id,
                TotalAmt: p.amount,
                CurrencyRef: { value: p.currency },
                ...(p.reference ? { PaymentRefNum: p.reference } : {}),
                Line: [{ Amount: p.amount, LinkedTxn: [{ TxnId: p.invoice_id, TxnType: 'Invoice' }] }],
              }));
      const rows = all.slice(start - 1, start - 1 + max);
      // Intuit leaves the entity out of an empty answer.
      return json(200, {
        QueryResponse:
          from && rows.length > 0 ? { [from]: rows, startPosition: start, maxResults: rows.length } : {},
        time: new Date().toISOString(),
      });
    }
    return json(404, {
      Fault: { Error: [{ Message: 'Unsupported Operation', code: '500' }], type: 'ValidationFault' },
    });
  }
}
