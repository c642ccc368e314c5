import { type Booked, PAGE_SIZES, type Reply, round2, type SandboxBook } from './oauth-book';
import { SANDBOX_ORGANISATIONS } from './oauth-providers';

/**
 * QuickBooks Online's Accounting API on loopback, past the token check (oauth-apis.ts):
 * `POST /v3/company/{realm}/invoice|creditmemo|payment` (`requestid` replays the first answer; a
 * payment's `Line[].LinkedTxn` names what it settles; refusals as `Fault.Error[]` with `Message`,
 * `Detail`, `code` and `element`: a DocNumber over 21 characters is 2050, a duplicate 6140) and
 * `GET query` paged by `STARTPOSITION`/`MAXRESULTS` (default 100, at most 1,000). Past its limit
 * (500 a minute) it answers 429.
 */

/** Intuit's per-realm limit; past it 429 (Intuit documents no Retry-After). */
export const QUICKBOOKS_LIMITS = { per_minute: 500 };

/** Intuit's answer to a refused request: `Fault.Error[]` with Message, Detail, code and element. */
export const quickbooksFault = (
  type: 'ValidationFault' | 'AuthenticationFault' | 'AuthorizationFault',
  errors: { Message: string; Detail?: string; code: string; element?: string }[],
) => ({ Fault: { Error: errors, type }, time: new Date().toISOString() });

export function answerQuickbooks(book: SandboxBook, url: URL, path: string, body: string, json: Reply) {
  if (book.lastMinute('quickbooks_online').length >= QUICKBOOKS_LIMITS.per_minute)
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
    const kept = requestId && book.replies.get(`qbo:${requestId}`);
    if (kept) return json(kept.status, kept.body);
    const sent = JSON.parse(body || '{}') as Record<string, unknown>;
    const answer =
      created === 'payment'
        ? quickbooksPayment(book, sent, requestId)
        : quickbooksSale(book, created, sent, requestId);
    if (requestId) book.replies.set(`qbo:${requestId}`, answer);
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
      ? book.booked
          .filter(
            (b) =>
              b.provider === 'quickbooks_online' &&
              b.type === type &&
              (doc === undefined || b.number === doc),
          )
          .slice(start - 1, start - 1 + max)
          .map(quickbooksRead)
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
function quickbooksRead(b: Booked) {
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
function quickbooksSale(
  book: SandboxBook,
  type: 'invoice' | 'credit_note',
  sent: Record<string, unknown>,
  requestId?: string,
) {
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
  const twin = book.booked.find(
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
  const id = String(100 + book.booked.length);
  const total = ((sent.Line as Record<string, unknown>[] | undefined) ?? []).reduce(
    (t, l) => t + Number(l.Amount ?? 0),
    0,
  );
  const customer = String((sent.CustomerRef as Record<string, unknown> | undefined)?.value ?? '');
  book.booked.push({
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
function quickbooksPayment(book: SandboxBook, sent: Record<string, unknown>, requestId?: string) {
  const lines = ((sent.Line as Record<string, unknown>[] | undefined) ?? []).map((l) => ({
    Amount: Number(l.Amount ?? 0),
    LinkedTxn: ((l.LinkedTxn as Record<string, unknown>[] | undefined) ?? []).map((t) => ({
      TxnId: String(t.TxnId),
      TxnType: String(t.TxnType),
    })),
  }));
  const linked = lines.flatMap((l) => l.LinkedTxn.map((t) => ({ ...t, amount: l.Amount })));
  const missing = linked.find(
    (t) => !book.find('quickbooks_online', t.TxnType === 'CreditMemo' ? 'credit_note' : 'invoice', t.TxnId),
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
  const invoice = book.find(
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
  if (memo && invoice) book.find('quickbooks_online', 'credit_note', memo.TxnId)!.invoice_id = invoice.id;
  const id = String(100 + book.booked.length);
  const total = Number(sent.TotalAmt ?? 0);
  book.booked.push({
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
