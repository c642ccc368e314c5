import type { IncomingMessage } from 'node:http';
import { type Booked, MINUTE_MS, PAGE_SIZES, type Reply, type SandboxBook } from './oauth-book';
import { xeroAllocate, xeroDocument, xeroPayment } from './oauth-apis-xero-writes';
import { SANDBOX_ORGANISATIONS } from './oauth-providers';

/**
 * Xero's Accounting API on loopback, past the token check (oauth-apis.ts): the tenant header, its
 * limits (60 a minute, 5,000 a day; 429 with Retry-After and X-Rate-Limit-Problem), an
 * `Idempotency-Key` replaying a write's first answer, the writes (oauth-apis-xero-writes.ts), and
 * `GET Invoices|CreditNotes|Payments` paged by `?page=<n>`, 100 a page (a payment names its
 * invoice, `Invoice.InvoiceID`).
 */

export const XERO_LIMITS = { per_minute: 60, per_day: 5000, concurrent: 5 };

export function answerXero(
  book: SandboxBook,
  req: IncomingMessage,
  url: URL,
  path: string,
  body: string,
  json: Reply,
) {
  if (req.headers['xero-tenant-id'] !== SANDBOX_ORGANISATIONS.xero.tenantId)
    return json(403, { Type: null, Title: 'Forbidden', Status: 403, Detail: 'AuthenticationUnsuccessful' });
  if (book.xeroDayUsed >= XERO_LIMITS.per_day) {
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
  const recent = book.lastMinute('xero');
  if (recent.length >= XERO_LIMITS.per_minute)
    return json(
      429,
      { Title: 'Too Many Requests' },
      {
        'retry-after': String(Math.max(1, Math.ceil((recent[0]!.at + MINUTE_MS - book.now()) / 1000))),
        'x-rate-limit-problem': 'minute',
      },
    );
  book.xeroDayUsed += 1;
  const method = req.method ?? 'GET';
  const key = req.headers['idempotency-key'] as string | undefined;
  const write = method === 'PUT' || method === 'POST';
  if (write && key) {
    const kept = book.replies.get(`xero:${key}`);
    if (kept) return json(kept.status, kept.body);
  }
  const answered = (status: number, value: unknown) => {
    if (write && key) book.replies.set(`xero:${key}`, { status, body: value });
    return json(status, value);
  };
  const parsed = JSON.parse(write ? body || '{}' : '{}') as Record<
    string,
    Record<string, unknown>[] | undefined
  >;
  const allocation = /^\/api\.xro\/2\.0\/CreditNotes\/([^/]+)\/Allocations$/.exec(path);
  if (allocation && write)
    return answered(...xeroAllocate(book, allocation[1]!, parsed.Allocations?.[0] ?? {}));
  if (path === '/api.xro/2.0/Invoices' && write)
    return answered(...xeroDocument(book, 'invoice', parsed.Invoices?.[0] ?? {}, key));
  if (path === '/api.xro/2.0/CreditNotes' && write)
    return answered(...xeroDocument(book, 'credit_note', parsed.CreditNotes?.[0] ?? {}, key));
  if (path === '/api.xro/2.0/Payments' && write)
    return answered(...xeroPayment(book, parsed.Payments?.[0] ?? {}, key));
  const numbers = url.searchParams.get('InvoiceNumbers')?.split(',');
  const of = (type: Booked['type']) => book.booked.filter((b) => b.provider === 'xero' && b.type === type);
  // Xero pages its lists by `page` (1-based, 100 a page); without `page` it answers them all.
  const paged = <T>(all: T[]) => {
    if (!url.searchParams.has('page')) return all;
    const from = (Math.max(1, Math.trunc(Number(url.searchParams.get('page'))) || 1) - 1) * PAGE_SIZES.xero;
    return all.slice(from, from + PAGE_SIZES.xero);
  };
  if (path === '/api.xro/2.0/Invoices' && method === 'GET')
    return json(200, {
      Invoices: paged(of('invoice').filter((b) => !numbers || numbers.includes(b.number))).map((b) => ({
        Type: 'ACCREC',
        InvoiceID: b.id,
        InvoiceNumber: b.number,
        Status: b.due === 0 ? 'PAID' : 'AUTHORISED',
        Total: b.amount,
        TotalTax: b.tax,
        AmountDue: b.due ?? b.amount,
        CurrencyCode: b.currency,
      })),
    });
  if (path === '/api.xro/2.0/CreditNotes' && method === 'GET')
    return json(200, {
      CreditNotes: paged(of('credit_note')).map((b) => ({
        Type: 'ACCRECCREDIT',
        CreditNoteID: b.id,
        CreditNoteNumber: b.number,
        Status: 'AUTHORISED',
        Total: b.amount,
        TotalTax: b.tax,
        CurrencyCode: b.currency,
        Allocations: b.invoice_id ? [{ Amount: b.amount, Invoice: { InvoiceID: b.invoice_id } }] : [],
      })),
    });
  if (path === '/api.xro/2.0/Payments' && method === 'GET')
    return json(200, {
      Payments: paged(of('payment')).map((b) => ({
        PaymentID: b.id,
        PaymentType: 'ACCRECPAYMENT',
        Status: 'AUTHORISED',
        Amount: b.amount,
        Reference: b.number,
        CurrencyRate: 1,
        Invoice: {
          InvoiceID: b.invoice_id,
          InvoiceNumber: book.find('xero', 'invoice', b.invoice_id)?.number,
          CurrencyCode: b.currency,
        },
      })),
    });
  return json(404, { Title: 'Not Found', Status: 404 });
}
