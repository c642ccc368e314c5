import type { BusinessDocument } from '#shared/domain/documents/ports';
import type { BusinessException } from '#shared/domain/exceptions/ports';
import { fromMinor, toMinor } from '#shared/kernel/money';
import { daysBetween, SEVERITY_RANK, type Severity, type Subject, today } from './common';

/**
 * The `payment_reconciliation` rules (docs/api.md section 9.5) over a tenant's documents, in exact
 * money: every finding names its documents and the repair it suggests.
 */

export type FindingCode =
  'payment_amount_mismatch' | 'duplicate_payment' | 'overdue_open_invoice' | 'payment_without_invoice';

export interface DocumentRef {
  id: string;
  document_type: BusinessDocument['document_type'];
  number: string;
  counterparty: string;
  amount: string;
  currency: string;
  status: BusinessDocument['status'];
}

export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** The document the finding is about; its exception's subject. */
  subject_id: string;
  documents: DocumentRef[];
  message: string;
  details: Record<string, string | number | null>;
  suggested_repair: { action: string; description: string; document_ids: string[] };
}

export const RULES: { code: FindingCode; description: string }[] = [
  {
    code: 'payment_amount_mismatch',
    description:
      'The payments and credit notes applied to an invoice (not void) do not add up to its amount, or are in another currency',
  },
  {
    code: 'duplicate_payment',
    description: 'Two or more payments (not void) for the same invoice, counterparty, currency and amount',
  },
  { code: 'overdue_open_invoice', description: 'An open invoice whose due date has passed' },
  {
    code: 'payment_without_invoice',
    description: 'A payment (not void) that applies to no invoice, or to one that is void or missing',
  },
];

/** Past this many days overdue an invoice is critical. */
export const CRITICAL_OVERDUE_DAYS = 30;

const ref = (d: BusinessDocument): DocumentRef => ({
  id: d.id,
  document_type: d.document_type,
  number: d.number,
  counterparty: d.counterparty,
  amount: d.amount,
  currency: d.currency,
  status: d.status,
});

const live = (d: BusinessDocument) => d.status !== 'void';

export function reconcile(documents: readonly BusinessDocument[], now: Date): Finding[] {
  const byId = new Map(documents.map((d) => [d.id, d]));
  const invoices = documents.filter((d) => d.document_type === 'invoice' && live(d));
  const payments = documents.filter((d) => d.document_type === 'payment' && live(d));
  const applied = (invoiceId: string) =>
    documents.filter((d) => d.document_type !== 'invoice' && live(d) && d.applies_to === invoiceId);
  const findings: Finding[] = [];

  for (const invoice of invoices) {
    const against = applied(invoice.id);
    const paidMinor = against
      .filter((d) => d.currency === invoice.currency)
      .reduce((sum, d) => sum + toMinor(d.amount), 0n);
    const otherCurrency = against.filter((d) => d.currency !== invoice.currency);
    const outstanding = toMinor(invoice.amount) - paidMinor;

    if (against.length > 0 && (outstanding !== 0n || otherCurrency.length > 0)) {
      const over = outstanding < 0n;
      findings.push({
        code: 'payment_amount_mismatch',
        severity: over || otherCurrency.length > 0 ? 'critical' : 'warning',
        subject_id: invoice.id,
        documents: [ref(invoice), ...against.map(ref)],
        message:
          otherCurrency.length > 0
            ? `Invoice ${invoice.number} (${invoice.currency}) has ${otherCurrency.length} applied document(s) in another currency.`
            : over
              ? `Invoice ${invoice.number} is overpaid by ${fromMinor(-outstanding)} ${invoice.currency}.`
              : `Invoice ${invoice.number} is underpaid by ${fromMinor(outstanding)} ${invoice.currency}.`,
        details: {
          invoice_amount: invoice.amount,
          applied_amount: fromMinor(paidMinor),
          difference: fromMinor(outstanding),
          currency: invoice.currency,
        },
        suggested_repair: over
          ? {
              action: 'refund_or_credit_overpayment',
              description: `Refund ${fromMinor(-outstanding)} ${invoice.currency} to ${invoice.counterparty}, or keep it as a credit, then void the excess payment if it was booked twice.`,
              document_ids: against.map((d) => d.id),
            }
          : otherCurrency.length > 0
            ? {
                action: 'correct_payment_currency',
                description: 'Re-book the payment in the invoice currency (void it and record it again).',
                document_ids: otherCurrency.map((d) => d.id),
              }
            : {
                action: 'collect_remaining_amount',
                description: `Ask ${invoice.counterparty} for the remaining ${fromMinor(outstanding)} ${invoice.currency}, or issue a credit note for it.`,
                document_ids: [invoice.id],
              },
      });
    }

    const due = invoice.due_on;
    if (invoice.status === 'open' && due !== null && due < today(now) && outstanding > 0n) {
      const days = daysBetween(due, today(now));
      findings.push({
        code: 'overdue_open_invoice',
        severity: days > CRITICAL_OVERDUE_DAYS ? 'critical' : 'warning',
        subject_id: invoice.id,
        documents: [ref(invoice)],
        message: `Invoice ${invoice.number} to ${invoice.counterparty} is ${days} day(s) overdue with ${fromMinor(outstanding)} ${invoice.currency} outstanding.`,
        details: {
          due_on: due,
          days_overdue: days,
          outstanding: fromMinor(outstanding),
          currency: invoice.currency,
        },
        suggested_repair: {
          action: 'send_payment_reminder',
          description: `Send ${invoice.counterparty} a reminder for invoice ${invoice.number}; mark it paid once the payment is recorded.`,
          document_ids: [invoice.id],
        },
      });
    }
  }

  const groups = new Map<string, BusinessDocument[]>();
  for (const p of payments) {
    const key = [p.applies_to ?? `none:${p.issued_on}`, p.counterparty, p.currency, toMinor(p.amount)].join(
      '\u0000',
    );
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const [first, ...rest] = [...group].sort(
      (a, b) => a.issued_on.localeCompare(b.issued_on) || a.id.localeCompare(b.id),
    );
    findings.push({
      code: 'duplicate_payment',
      severity: 'critical',
      subject_id: first!.id,
      documents: [first!, ...rest].map(ref),
      message: `${group.length} payments of ${first!.amount} ${first!.currency} from ${first!.counterparty}${first!.applies_to ? ` for invoice ${byId.get(first!.applies_to)?.number ?? first!.applies_to}` : ` on ${first!.issued_on}`}.`,
      details: {
        amount: first!.amount,
        currency: first!.currency,
        count: group.length,
        duplicated_amount: fromMinor(toMinor(first!.amount) * BigInt(rest.length)),
      },
      suggested_repair: {
        action: 'void_duplicate_payment',
        description: `Keep payment ${first!.number}; void ${rest.map((d) => d.number).join(', ')} after checking the bank statement, and refund if the money was received twice.`,
        document_ids: rest.map((d) => d.id),
      },
    });
  }

  for (const p of payments) {
    const target = p.applies_to ? byId.get(p.applies_to) : undefined;
    if (target && target.document_type === 'invoice' && live(target)) continue;
    findings.push({
      code: 'payment_without_invoice',
      severity: 'warning',
      subject_id: p.id,
      documents: [ref(p), ...(target ? [ref(target)] : [])],
      message: p.applies_to
        ? `Payment ${p.number} applies to ${target ? `void ${target.document_type} ${target.number}` : 'a document that does not exist'}.`
        : `Payment ${p.number} of ${p.amount} ${p.currency} from ${p.counterparty} applies to no invoice.`,
      details: { amount: p.amount, currency: p.currency, applies_to: p.applies_to },
      suggested_repair: {
        action: 'match_payment_to_invoice',
        description: `Find the open invoice of ${p.counterparty} for ${p.amount} ${p.currency} and record the payment against it, or refund it.`,
        document_ids: [p.id],
      },
    });
  }

  return findings.sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      a.code.localeCompare(b.code) ||
      a.subject_id.localeCompare(b.subject_id),
  );
}

/** The exception type a finding would open (`payment_reconciliation.<code>`). */
export const exceptionTypeOf = (code: FindingCode) => `payment_reconciliation.${code}`;

/** A finding matches a `document` subject by any of its documents, a `counterparty` subject by name. */
const matchesFinding = (s: Subject, f: Finding) => {
  if (!s.subject_type && !s.subject_id) return true;
  if (s.subject_type === 'document') return !s.subject_id || f.documents.some((d) => d.id === s.subject_id);
  if (s.subject_type === 'counterparty')
    return !s.subject_id || f.documents.some((d) => d.counterparty === s.subject_id);
  return false;
};

export interface DetectionRequest extends Subject {
  rule_set: 'payment_reconciliation';
  limit: number;
}

/** The detection preview's own fields (the use case adds the shared ones). */
export function detection(
  request: DetectionRequest,
  data: { documents: readonly BusinessDocument[]; exceptions: readonly BusinessException[] },
  now: Date,
  api: (path: string) => string,
) {
  const all = reconcile(data.documents, now).filter((f) => matchesFinding(request, f));
  const shown = all.slice(0, request.limit);
  const openException = (f: Finding) =>
    data.exceptions.find(
      (e) =>
        e.status !== 'resolved' &&
        e.exception_type === exceptionTypeOf(f.code) &&
        e.subject_type === 'document' &&
        e.subject_id === f.subject_id,
    );
  const sources = new Set(data.documents.flatMap((d) => Object.keys(d.external_refs ?? {})));
  return {
    rule_set: request.rule_set,
    rules: RULES.map((r) => ({
      ...r,
      findings: all.filter((f) => f.code === r.code).length,
    })),
    observations: shown.map((f) => ({ ...f })),
    detected_exceptions: shown.map((f) => {
      const existing = openException(f);
      return {
        exception_type: exceptionTypeOf(f.code),
        severity: f.severity,
        subject_type: 'document',
        subject_id: f.subject_id,
        title: f.message.slice(0, 255),
        already_open_exception_id: existing?.id ?? null,
        would_create: !existing,
      };
    }),
    suggested_repair_actions: shown.map((f) => ({
      code: f.code,
      ...f.suggested_repair,
      api: api(`/tenants/{tenant_id}/documents/${f.suggested_repair.document_ids[0]}`),
    })),
    source_systems: [...sources].sort(),
    summary:
      all.length === 0
        ? `No reconciliation findings in ${data.documents.length} document(s).`
        : `${all.length} finding(s) in ${data.documents.length} document(s): ${RULES.map((r) => `${all.filter((f) => f.code === r.code).length} ${r.code}`).join(', ')}${shown.length < all.length ? `; the first ${shown.length} shown` : ''}.`,
    evidence: [{ findings: all.length, shown: shown.length }],
  };
}
