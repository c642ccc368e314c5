import { randomUUID } from 'node:crypto';
import type { OAuthProviderName } from './oauth-providers';

/**
 * What the loopback Xero and QuickBooks APIs (oauth-apis.ts) hold between calls: the documents
 * each provider booked, the calls it answered (what its rate limits count), and the answers kept
 * for a replayed Idempotency-Key or requestid. The two providers' halves (oauth-apis-xero.ts,
 * oauth-apis-quickbooks.ts) read and write it; tests seed and inspect it.
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

/** How a provider's half answers a call: status, JSON body, extra headers. */
export type Reply = (status: number, value: unknown, headers?: Record<string, string>) => void;

export const MINUTE_MS = 60_000;
/** Xero's `page` of invoices or payments; QuickBooks' largest MAXRESULTS (its default is 100). */
export const PAGE_SIZES = { xero: 100, quickbooks_max: 1000, quickbooks_default: 100 };

export const round2 = (n: number) => Math.round(n * 100) / 100;

export class SandboxBook {
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
  /** The first answer to a write, by `xero:<Idempotency-Key>` or `qbo:<requestid>`. */
  readonly replies = new Map<string, { status: number; body: unknown }>();

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
  lastMinute(provider: OAuthProviderName) {
    return this.calls.filter((c) => c.provider === provider && c.at > this.now() - MINUTE_MS);
  }

  /** How many documents of a type (invoices unless told) the provider booked with this number. */
  bookingCount(provider: OAuthProviderName, number: string, type: Booked['type'] = 'invoice'): number {
    return this.booked.filter((b) => b.provider === provider && b.type === type && b.number === number)
      .length;
  }

  find(provider: OAuthProviderName, type: Booked['type'], id: unknown) {
    return this.booked.find((b) => b.provider === provider && b.type === type && b.id === String(id));
  }
}
