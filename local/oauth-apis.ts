import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type OAuthProviderName, SANDBOX_ORGANISATIONS } from './oauth-providers';

/** What the APIs ask of the consent side: the grant of a request's live access token, if any. */
export interface AccessCheck {
  authorized(req: IncomingMessage): unknown;
}

/**
 * Xero's Accounting API and QuickBooks Online's on loopback, in the shapes their references
 * document (docs/connecting-accounting.md): Xero `PUT|POST /api.xro/2.0/Invoices`, `CreditNotes`
 * (and `CreditNotes/{id}/Allocations`) and `Payments` (with `Idempotency-Key`, `xero-tenant-id`;
 * totals computed as Xero does from `LineAmountTypes` and each line's `TaxType`; a refusal is a
 * 400 `ValidationException` listing `Elements[].ValidationErrors[].Message`; a duplicate number
 * refused), `GET Invoices|CreditNotes|Payments` (a payment names its invoice, `Invoice.InvoiceID`),
 * and its limits (60 a minute, 5,000 a day; 429 with Retry-After and X-Rate-Limit-Problem);
 * QuickBooks `POST /v3/company/{realm}/invoice|creditmemo|payment` (`requestid` replays the first
 * answer; a payment's `Line[].LinkedTxn` names what it settles; refusals as `Fault.Error[]` with
 * `Message`, `Detail`, `code` and `element`: a DocNumber over 21 characters is 2050, a duplicate
 * 6140) and `GET query`. Each QuickBooks call's `minorversion` is recorded with it.
 * Reads page as documented (Xero `?page=<n>` by 100; QuickBooks `STARTPOSITION`/`MAXRESULTS`,
 * default 100, at most 1,000), and QuickBooks too answers 429 past its limit (500 a minute).
 * `now` is the clock of the limits, so tests move it rather than wait a minute.
 */

export interface Booked {
  provider: OAuthProviderName;
  /** What the provider booked it as: Xero Invoice/CreditNote/Payment, QuickBooks Invoice/CreditMemo/Payment. */
  type: 'invoice' | 'credit_note' | 'payment';
  id: string;
  /** InvoiceNumber, CreditNoteNumber or DocNumber; a payment's Reference or PaymentRefNum. */
  number: string;
  /** The total as the provider computes it (tax included), a payment's amount. */
  amount: number;
  /** Xero's TotalAmt of tax within `amount` (0 without tax). */
  tax: number;
  currency: string;
  key: string | undefined;
  /**
   * What it is linked to at the provider: a payment's invoice (Xero `Invoice.InvoiceID`, QuickBooks
   * `Line[].LinkedTxn` TxnType Invoice), a credit note's invoice once allocated or applied.
   */
  invoice_id?: string;
  /** A QuickBooks payment's lines as sent (each with its LinkedTxn). */
  lines?: { Amount: number; LinkedTxn: { TxnId: string; TxnType: string }[] }[];
  customer?: string;
  /** An invoice's amount still due, after payments and credits. */
  due?: number;
}

/** Xero's tax rates of the sandbox organisation, by TaxType (NZ GST 15%). */
export const XERO_SANDBOX_TAX_RATES: Readonly<Record<string, number>> = { OUTPUT2: 0.15, NONE: 0 };

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Xero's totals of a document's lines: `Exclusive` adds each line's tax on top, `Inclusive` keeps
 * the tax inside the line amount, `NoTax` has none. An unknown TaxType is a validation error.
 */
export function xeroTotals(
  lineAmountTypes: unknown,
  lines: Record<string, unknown>[],
): { SubTotal: number; TotalTax: number; Total: number } | { error: string } {
  let sub = 0;
  let tax = 0;
  for (const line of lines) {
    const amount = Number(line.UnitAmount ?? 0) * Number(line.Quantity ?? 1);
    const type = line.TaxType === undefined ? 'NONE' : String(line.TaxType);
    const rate = XERO_SANDBOX_TAX_RATES[type];
    if (rate === undefined)
      return {
        error: `The TaxType code '${type}' does not exist or cannot be used for this type of transaction.`,
      };
    if (lineAmountTypes === 'Exclusive') {
      sub += amount;
      tax += amount * rate;
    } else if (lineAmountTypes === 'Inclusive') {
      sub += amount / (1 + rate);
      tax += amount - amount / (1 + rate);
    } else sub += amount;
  }
  return { SubTotal: round2(sub), TotalTax: round2(tax), Total: round2(sub + tax) };
}

/** Xero's answer to a refused request: 400 `ValidationException`, each element with its errors. */
export const xeroValidation = (element: Record<string, unknown>, messages: string[]) => ({
  ErrorNumber: 10,
  Type: 'ValidationException',
  Message: 'A validation exception occurred',
  Elements: [{ ...element, ValidationErrors: messages.map((Message) => ({ Message })) }],
});

/** Intuit's answer to a refused request: `Fault.Error[]` with Message, Detail, code and element. */
export const quickbooksFault = (
  type: 'ValidationFault' | 'AuthenticationFault' | 'AuthorizationFault',
  errors: { Message: string; Detail?: string; code: string; element?: string }[],
) => ({ Fault: { Error: errors, type }, time: new Date().toISOString() });

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
    /** QuickBooks' `minorversion` query parameter as the call sent it. */
    minorversion?: string | null;
  }[] = [];
  /** Calls counted against Xero's daily limit today (tests set it near the limit). */
  xeroDayUsed = 0;
  /** The sandbox's clock for its rate limits: tests move it instead of waiting a minute. */
  now: () => number = () => Date.now();
  private readonly scripts = new Map<OAuthProviderName, ApiScript[]>();
  private readonly replies = new Map<string, { status: number; body: unknown }>();

  constructor(private readonly oauth: AccessCheck) {}

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
      this.booked.push({ provider, type: 'invoice', id, key: undefined, tax: 0, ...i });
      return id;
    });
  }

  /**
   * A payment the provider holds against its invoice `invoice_id`, kept as a booked one is (Xero
   * `Invoice.InvoiceID`, QuickBooks one line linking the invoice); `reference` is Xero's optional
   * Reference or QuickBooks' PaymentRefNum, empty unless given.
   */
  seedPayment(payment: {
    provider: OAuthProviderName;
    invoice_id: string;
    amount: number;
    currency: string;
    reference?: string;
  }): Booked {
    const b: Booked = {
      provider: payment.provider,
      type: 'payment',
      id: payment.provider === 'xero' ? randomUUID() : String(100 + this.booked.length),
      number: payment.reference ?? '',
      amount: payment.amount,
      tax: 0,
      currency: payment.currency,
      key: undefined,
      invoice_id: payment.invoice_id,
      ...(payment.provider === 'quickbooks_online'
        ? {
            lines: [
              { Amount: payment.amount, LinkedTxn: [{ TxnId: payment.invoice_id, TxnType: 'Invoice' }] },
            ],
          }
        : {}),
    };
    this.booked.push(b);
    return b;
  }

  /** Calls of the last minute: what a provider's per-minute limit counts. */
  private lastMinute(provider: OAuthProviderName) {
    return this.calls.filter((c) => c.provider === provider && c.at > this.now() - MINUTE_MS);
  }

  /** How many documents of a type (invoices unless told) the provider booked with this number. */
  bookingCount(provider: OAuthProviderName, number: string, type: Booked['type'] = 'invoice'): number {
    return this.booked.filter((b) => b.provider === provider && b.type === type && b.number === number)
      .length;
  }

  private find(provider: OAuthProviderName, type: Booked['type'], id: unknown) {
    return this.booked.find((b) => b.provider === provider && b.type === type && b.id === String(id));
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
      this.calls.push({
        provider,
        method,
        path,
        status,
        at: this.now(),
        ...(provider === 'quickbooks_online' ? { minorversion: url.searchParams.get('minorversion') } : {}),
      });
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
        : json(
            401,
            quickbooksFault('AuthenticationFault', [
              { Message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401', code: '3200' },
            ]),
          );
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
    const key = req.headers['idempotency-key'] as string | undefined;
    const write = method === 'PUT' || method === 'POST';
    if (write && key) {
      const kept = this.replies.get(`xero:${key}`);
      if (kept) return json(kept.status, kept.body);
    }
    const answered = (status: number, value: unknown) => {
      if (write && key) this.replies.set(`xero:${key}`, { status, body: value });
      return json(status, value);
    };
    const parsed = JSON.parse(write ? body || '{}' : '{}') as Record<
      string,
      Record<string, unknown>[] | undefined
    >;
    const allocation = /^\/api\.xro\/2\.0\/CreditNotes\/([^/]+)\/Allocations$/.exec(path);
    if (allocation && write)
      return answered(...this.xeroAllocate(allocation[1]!, parsed.Allocations?.[0] ?? {}));
    if (path === '/api.xro/2.0/Invoices' && write)
      return answered(...this.xeroDocument('invoice', parsed.Invoices?.[0] ?? {}, key));
    if (path === '/api.xro/2.0/CreditNotes' && write)
      return answered(...this.xeroDocument('credit_note', parsed.CreditNotes?.[0] ?? {}, key));
    if (path === '/api.xro/2.0/Payments' && write)
      return answered(...this.xeroPayment(parsed.Payments?.[0] ?? {}, key));
    const numbers = url.searchParams.get('InvoiceNumbers')?.split(',');
    const of = (type: Booked['type']) => this.booked.filter((b) => b.provider === 'xero' && b.type === type);
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
            InvoiceNumber: this.find('xero', 'invoice', b.invoice_id)?.number,
            CurrencyCode: b.currency,
          },
        })),
      });
    return json(404, { Title: 'Not Found', Status: 404 });
  }

  /** Xero's PUT Invoices / CreditNotes: totals as Xero computes them; a number used twice refused. */
  private xeroDocument(
    type: 'invoice' | 'credit_note',
    item: Record<string, unknown>,
    key: string | undefined,
  ): [number, unknown] {
    const [list, numberField, idField, kind] =
      type === 'invoice'
        ? (['Invoices', 'InvoiceNumber', 'InvoiceID', 'ACCREC'] as const)
        : (['CreditNotes', 'CreditNoteNumber', 'CreditNoteID', 'ACCRECCREDIT'] as const);
    const number = String(item[numberField] ?? '');
    const totals = xeroTotals(
      item.LineAmountTypes,
      (item.LineItems as Record<string, unknown>[] | undefined) ?? [],
    );
    const errors = [
      ...(item.Type === kind ? [] : [`Type must be ${kind}`]),
      ...(number && this.bookingCount('xero', number, type) === 0
        ? []
        : [type === 'invoice' ? 'Invoice # must be unique.' : 'Credit Note # must be unique.']),
      ...('error' in totals ? [totals.error] : []),
    ];
    if (errors.length || 'error' in totals) return [400, xeroValidation(item, errors)];
    const id = randomUUID();
    this.booked.push({
      provider: 'xero',
      type,
      id,
      number,
      amount: totals.Total,
      tax: totals.TotalTax,
      currency: String(item.CurrencyCode),
      key,
      ...(type === 'invoice' ? { due: totals.Total } : {}),
    });
    return [
      200,
      {
        Id: randomUUID(),
        Status: 'OK',
        ProviderName: 'ops-platform',
        [list]: [{ ...item, [idField]: id, ...totals, HasErrors: false }],
      },
    ];
  }

  /** Xero's PUT CreditNotes/{id}/Allocations: the credit set against an invoice's amount due. */
  private xeroAllocate(creditNoteId: string, a: Record<string, unknown>): [number, unknown] {
    const credit = this.find('xero', 'credit_note', creditNoteId);
    const invoice = this.find(
      'xero',
      'invoice',
      (a.Invoice as Record<string, unknown> | undefined)?.InvoiceID,
    );
    const amount = Number(a.Amount ?? 0);
    if (!credit)
      return [404, { Title: 'Not Found', Status: 404, Detail: 'The credit note could not be found' }];
    const errors = !invoice
      ? ['Invoice could not be found']
      : amount > (invoice.due ?? invoice.amount) || amount > credit.amount
        ? ['The amount applied exceeds the amount outstanding on the invoice or the credit note']
        : [];
    if (errors.length || !invoice) return [400, xeroValidation(a, errors)];
    invoice.due = round2((invoice.due ?? invoice.amount) - amount);
    credit.invoice_id = invoice.id;
    return [
      200,
      {
        Id: randomUUID(),
        Status: 'OK',
        Allocations: [
          {
            Amount: amount,
            Date: a.Date,
            Invoice: { InvoiceID: invoice.id },
            CreditNote: { CreditNoteID: credit.id },
          },
        ],
      },
    ];
  }

  /** Xero's PUT Payments: a payment against an invoice into an account, at most its amount due. */
  private xeroPayment(p: Record<string, unknown>, key: string | undefined): [number, unknown] {
    const invoice = this.find(
      'xero',
      'invoice',
      (p.Invoice as Record<string, unknown> | undefined)?.InvoiceID,
    );
    const account = (p.Account as Record<string, unknown> | undefined)?.Code;
    const amount = Number(p.Amount ?? 0);
    const errors = [
      ...(invoice ? [] : ['Invoice could not be found']),
      ...(account ? [] : ['Account code must be specified']),
      ...(invoice && amount > (invoice.due ?? invoice.amount)
        ? ['Payment amount exceeds the amount outstanding on this document']
        : []),
    ];
    if (errors.length || !invoice) return [400, xeroValidation(p, errors)];
    invoice.due = round2((invoice.due ?? invoice.amount) - amount);
    const id = randomUUID();
    this.booked.push({
      provider: 'xero',
      type: 'payment',
      id,
      number: String(p.Reference ?? ''),
      amount,
      tax: 0,
      currency: invoice.currency,
      key,
      invoice_id: invoice.id,
    });
    return [
      200,
      {
        Id: randomUUID(),
        Status: 'OK',
        Payments: [
          {
            ...p,
            PaymentID: id,
            PaymentType: 'ACCRECPAYMENT',
            Status: 'AUTHORISED',
            Invoice: { InvoiceID: invoice.id, InvoiceNumber: invoice.number },
            HasValidationErrors: false,
          },
        ],
      },
    ];
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
      return json(
        403,
        quickbooksFault('AuthorizationFault', [{ Message: 'AuthorizationFailure', code: '3100' }]),
      );
    const entity = path.slice(prefix.length + 1);
    const created = ({ invoice: 'invoice', creditmemo: 'credit_note', payment: 'payment' } as const)[
      entity as 'invoice' | 'creditmemo' | 'payment'
    ];
    if (created) {
      const requestId = url.searchParams.get('requestid') ?? undefined;
      const kept = requestId && this.replies.get(`qbo:${requestId}`);
      if (kept) return json(kept.status, kept.body);
      const sent = JSON.parse(body || '{}') as Record<string, unknown>;
      const answer =
        created === 'payment'
          ? this.quickbooksPayment(sent, requestId)
          : this.quickbooksSale(created, sent, requestId);
      if (requestId) this.replies.set(`qbo:${requestId}`, answer);
      return json(answer.status, answer.body);
    }
    if (entity === 'query') {
      const query = url.searchParams.get('query') ?? '';
      const from = /from (Invoice|Payment|CreditMemo)/i.exec(query)?.[1] as
        'Invoice' | 'Payment' | 'CreditMemo' | undefined;
      // Intuit's query language escapes a quote in a value with a backslash.
      const doc = /DocNumber = '((?:\\'|[^'])*)'/.exec(query)?.[1]?.replace(/\\'/g, "'");
      // STARTPOSITION is 1-based; MAXRESULTS defaults to 100 and may be at most 1,000.
      const start = Number(/startposition\s+(\d+)/i.exec(query)?.[1] ?? 1);
      const max = Number(/maxresults\s+(\d+)/i.exec(query)?.[1] ?? PAGE_SIZES.quickbooks_default);
      if (start < 1 || max < 1 || max > PAGE_SIZES.quickbooks_max)
        return json(
          400,
          quickbooksFault('ValidationFault', [
            {
              Message: 'Error parsing query',
              Detail: `QueryParserError: MAXRESULTS must be 1 to ${PAGE_SIZES.quickbooks_max}, STARTPOSITION at least 1`,
              code: '4000',
            },
          ]),
        );
      const type =
        from && ({ Invoice: 'invoice', Payment: 'payment', CreditMemo: 'credit_note' } as const)[from];
      const rows = type
        ? this.booked
            .filter(
              (b) =>
                b.provider === 'quickbooks_online' &&
                b.type === type &&
                (doc === undefined || b.number === doc),
            )
            .slice(start - 1, start - 1 + max)
            .map((b) => this.quickbooksRead(b))
        : [];
      // Intuit leaves the entity out of an empty answer.
      return json(200, {
        QueryResponse:
          from && rows.length > 0 ? { [from]: rows, startPosition: start, maxResults: rows.length } : {},
        time: new Date().toISOString(),
      });
    }
    return json(404, quickbooksFault('ValidationFault', [{ Message: 'Unsupported Operation', code: '500' }]));
  }

  /** An Invoice, CreditMemo or Payment as Intuit's reads answer it. */
  private quickbooksRead(b: Booked) {
    const common = {
      Id: b.id,
      TotalAmt: b.amount,
      CurrencyRef: { value: b.currency },
      CustomerRef: { value: b.customer },
    };
    if (b.type === 'payment') return { ...common, PaymentRefNum: b.number, Line: b.lines ?? [] };
    if (b.type === 'credit_note')
      return {
        ...common,
        DocNumber: b.number,
        ...(b.invoice_id ? { LinkedTxn: [{ TxnId: b.invoice_id, TxnType: 'Invoice' }] } : {}),
      };
    return { ...common, DocNumber: b.number, Balance: b.due ?? b.amount };
  }

  /** QuickBooks' invoice and creditmemo: DocNumber at most 21 characters and unique per type. */
  private quickbooksSale(type: 'invoice' | 'credit_note', sent: Record<string, unknown>, requestId?: string) {
    const number = String(sent.DocNumber ?? '');
    if (number.length > 21)
      return {
        status: 400,
        body: quickbooksFault('ValidationFault', [
          {
            Message: 'String length is either shorter or longer than supported by specification',
            Detail: `String length specified does not match the supported length. Min:0 Max:21 supplied length:${number.length}`,
            code: '2050',
            element: 'DocNumber',
          },
        ]),
      };
    const twin = this.booked.find(
      (b) => b.provider === 'quickbooks_online' && b.type === type && number && b.number === number,
    );
    if (twin)
      return {
        status: 400,
        body: quickbooksFault('ValidationFault', [
          {
            Message: 'Duplicate Document Number Error',
            Detail: `Duplicate Document Number Error : You must specify a different number. This number has already been used. DocNumber=${number} is assigned to TxnType=${type === 'invoice' ? 'Invoice' : 'CreditMemo'} with TxnId=${twin.id}`,
            code: '6140',
            element: '',
          },
        ]),
      };
    const id = String(100 + this.booked.length);
    const total = ((sent.Line as Record<string, unknown>[] | undefined) ?? []).reduce(
      (t, l) => t + Number(l.Amount ?? 0),
      0,
    );
    const customer = String((sent.CustomerRef as Record<string, unknown> | undefined)?.value ?? '');
    this.booked.push({
      provider: 'quickbooks_online',
      type,
      id,
      number,
      amount: total,
      tax: 0,
      currency: String((sent.CurrencyRef as Record<string, unknown> | undefined)?.value ?? 'USD'),
      key: requestId,
      customer,
      ...(type === 'invoice' ? { due: total } : {}),
    });
    const entity = type === 'invoice' ? 'Invoice' : 'CreditMemo';
    return {
      status: 200,
      body: {
        [entity]: {
          ...sent,
          Id: id,
          TotalAmt: total,
          SyncToken: '0',
          ...(type === 'invoice' ? { Balance: total } : { RemainingCredit: total }),
        },
        time: new Date().toISOString(),
      },
    };
  }

  /**
   * QuickBooks' payment: its lines link the transactions it settles (`LinkedTxn`: an Invoice, or
   * a CreditMemo it applies); each must exist, and an invoice is paid down by its line's amount.
   */
  private quickbooksPayment(sent: Record<string, unknown>, requestId?: string) {
    const lines = ((sent.Line as Record<string, unknown>[] | undefined) ?? []).map((l) => ({
      Amount: Number(l.Amount ?? 0),
      LinkedTxn: ((l.LinkedTxn as Record<string, unknown>[] | undefined) ?? []).map((t) => ({
        TxnId: String(t.TxnId),
        TxnType: String(t.TxnType),
      })),
    }));
    const linked = lines.flatMap((l) => l.LinkedTxn.map((t) => ({ ...t, amount: l.Amount })));
    const missing = linked.find(
      (t) => !this.find('quickbooks_online', t.TxnType === 'CreditMemo' ? 'credit_note' : 'invoice', t.TxnId),
    );
    if (!linked.length || missing)
      return {
        status: 400,
        body: quickbooksFault('ValidationFault', [
          {
            Message: 'Object Not Found',
            Detail: `Object Not Found : Something you're trying to use has been made inactive. Check the fields with accounts, customers, items, vendors or employees. ${missing ? `${missing.TxnType} ${missing.TxnId}` : 'Line.LinkedTxn'}`,
            code: '610',
            element: 'Line.LinkedTxn',
          },
        ]),
      };
    const invoice = this.find(
      'quickbooks_online',
      'invoice',
      linked.find((t) => t.TxnType === 'Invoice')?.TxnId,
    );
    const memo = linked.find((t) => t.TxnType === 'CreditMemo');
    if (invoice)
      invoice.due = round2(
        (invoice.due ?? invoice.amount) -
          linked.filter((t) => t.TxnType === 'Invoice').reduce((n, t) => n + t.amount, 0),
      );
    if (memo && invoice) this.find('quickbooks_online', 'credit_note', memo.TxnId)!.invoice_id = invoice.id;
    const id = String(100 + this.booked.length);
    const total = Number(sent.TotalAmt ?? 0);
    this.booked.push({
      provider: 'quickbooks_online',
      type: 'payment',
      id,
      number: String(sent.PaymentRefNum ?? ''),
      amount: total,
      tax: 0,
      currency: String((sent.CurrencyRef as Record<string, unknown> | undefined)?.value ?? 'USD'),
      key: requestId,
      customer: String((sent.CustomerRef as Record<string, unknown> | undefined)?.value ?? ''),
      ...(invoice ? { invoice_id: invoice.id } : {}),
      lines,
    });
    return {
      status: 200,
      body: { Payment: { ...sent, Id: id, TotalAmt: total, SyncToken: '0' }, time: new Date().toISOString() },
    };
  }
}
