import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ledgerly } from '#shared/domain/integrations/adapters/ledgerly';
import { tallybook } from '#shared/domain/integrations/adapters/tallybook';

export const ACCOUNTING_TARGETS = ['ledgerly', 'tallybook'] as const;
export type AccountingTargetName = (typeof ACCOUNTING_TARGETS)[number];

/** A scripted answer to the next call: a status (with Retry-After), or no answer at all. */
export type AccountingScript =
  /** Answers as it would unscripted (books). */
  | { ok: true }
  | { status: number; retryAfter?: number }
  /** Never answers (the client times out); with `book`, it books the documents first. */
  | { hang: true; book?: boolean };

const MINUTE_MS = 60_000;
const KEY_RETENTION_MS = 24 * 3600_000;

/**
 * Ledgerly and Tallybook on loopback, as their adapter declarations describe them: each books a
 * document and answers its external id; past the published per-minute limit it answers 429 with
 * Retry-After; Ledgerly remembers each document's idempotency key for 24 hours and answers a
 * repeated key with the booking it made (Tallybook has no such thing: every create books, and
 * `GET .../documents?number=` finds what is booked). `bookingCount` is what tests prove
 * "booked once" with; `script` makes the next calls fail or hang.
 */
export class AccountingSandbox {
  /** Booked documents per target: external id, number, type, idempotency key, when. */
  readonly booked: {
    target: AccountingTargetName;
    id: string;
    number: string;
    type: string;
    key?: string;
    at: number;
  }[] = [];
  /** Calls that reached a target (token and lookup calls included), with when they arrived. */
  readonly calls: {
    target: AccountingTargetName;
    method: string;
    path: string;
    status: number;
    at: number;
  }[] = [];
  private readonly scripts = new Map<AccountingTargetName, AccountingScript[]>();
  private readonly hanging = new Set<ServerResponse>();
  private readonly timers = new Set<NodeJS.Timeout>();

  script(target: AccountingTargetName, answers: AccountingScript[]): void {
    this.scripts.set(target, [...answers]);
  }

  /** How many times a target booked the document with this number. */
  bookingCount(target: AccountingTargetName, number: string): number {
    return this.booked.filter((b) => b.target === target && b.number === number).length;
  }

  private rateLimit(target: AccountingTargetName) {
    const declared = (target === 'ledgerly' ? ledgerly : tallybook).operations[0]!.rate_limit!;
    const recent = this.calls.filter((c) => c.target === target && c.at > Date.now() - MINUTE_MS);
    if (recent.length < declared.per_minute) return undefined;
    return Math.max(1, Math.ceil((recent[0]!.at + MINUTE_MS - Date.now()) / 1000));
  }

  private book(target: AccountingTargetName, number: string, type: string, key?: string) {
    if (key) {
      const kept = this.booked.find(
        (b) => b.target === target && b.key === key && b.at > Date.now() - KEY_RETENTION_MS,
      );
      if (kept) return kept.id;
    }
    const id = `${target}-${randomUUID()}`;
    this.booked.push({ target, id, number, type, ...(key ? { key } : {}), at: Date.now() });
    return id;
  }

  /** The documents a create call carries: number, type and (Ledgerly) idempotency key. */
  private documentsOf(target: AccountingTargetName, path: string, body: string) {
    const type = (path.split('/').pop() ?? 'invoices').replace(/s$/, '').replace('-', '_');
    const parsed = JSON.parse(body || '{}') as Record<string, unknown>;
    if (target === 'tallybook') return [{ number: String(parsed.doc_no), type, key: undefined }];
    return ((parsed.Items ?? []) as Record<string, unknown>[]).map((i) => ({
      number: String(i.InvoiceNumber),
      type,
      key: String(i.IdempotencyKey),
    }));
  }

  answer(
    target: AccountingTargetName,
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: string,
  ): void {
    const path = url.pathname.slice(target.length + 1);
    const method = req.method ?? 'GET';
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      this.calls.push({ target, method, path, status, at: Date.now() });
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    };
    const isToken = path === '/oauth/token';
    const isCreate = method === 'POST' && !isToken;
    const scripted = isToken ? undefined : this.scripts.get(target)?.shift();
    if (scripted && 'hang' in scripted) {
      this.calls.push({ target, method, path, status: 0, at: Date.now() });
      if (scripted.book && isCreate)
        for (const d of this.documentsOf(target, path, body)) this.book(target, d.number, d.type, d.key);
      this.hanging.add(res);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.hanging.delete(res);
        if (!res.writableEnded) res.writeHead(504).end();
      }, 30_000);
      this.timers.add(timer);
      return;
    }
    if (scripted && 'status' in scripted) {
      json(
        scripted.status,
        { error: 'scripted' },
        scripted.retryAfter === undefined ? {} : { 'retry-after': String(scripted.retryAfter) },
      );
      return;
    }
    const retryAfter = this.rateLimit(target);
    if (retryAfter !== undefined) {
      json(429, { error: 'rate_limited' }, { 'retry-after': String(retryAfter) });
      return;
    }
    if (target === 'ledgerly') {
      if (isToken) {
        const form = new URLSearchParams(body);
        if (!form.get('client_id') || !form.get('client_secret'))
          return json(401, { error: 'invalid_client' });
        return json(200, { access_token: randomUUID(), expires_in: 1800 });
      }
      if (!req.headers.authorization?.startsWith('Bearer ')) return json(401, { error: 'unauthorized' });
      const items = this.documentsOf(target, path, body).map((d) => ({
        IdempotencyKey: d.key,
        Status: 'OK',
        Id: this.book(target, d.number, d.type, d.key),
      }));
      return json(200, { Items: items });
    }
    if (!req.headers['x-api-key']) return json(401, { error: 'unauthorized' });
    if (method === 'GET' && path.endsWith('/documents')) {
      const number = url.searchParams.get('number');
      const type = url.searchParams.get('type');
      const items = this.booked
        .filter((b) => b.target === target && b.number === number && b.type === type)
        .map((b) => ({ id: b.id, number: b.number, type: b.type }));
      return json(200, { items });
    }
    if (!isCreate) return json(404, { error: 'not_found' });
    const [d] = this.documentsOf(target, path, body);
    return json(201, { id: this.book(target, d!.number, d!.type) });
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
  }
}
