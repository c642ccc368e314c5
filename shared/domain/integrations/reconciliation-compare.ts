import { derivedId } from '#shared/kernel/ids';
import { compareDecimals, normalizeMoney } from '#shared/kernel/money';
import type { BusinessDocument } from '#shared/domain/documents/ports';
import type { BusinessException } from '#shared/domain/exceptions/ports';
import { type ExceptionReport, openException } from '#shared/domain/exceptions/record';
import type { ProviderRecord, ReconciliationRun } from './ports';

/**
 * The comparing half of a reconciliation run (reconciliation.ts reads the pages): the tenant's
 * documents against the provider's records, and the business exception each mismatch becomes.
 */

export interface Mismatch {
  document: BusinessDocument;
  record: ProviderRecord;
}

export interface Comparison {
  matched: number;
  mismatches: Mismatch[];
  missing_in_provider: BusinessDocument[];
  missing_locally: ProviderRecord[];
}

/**
 * `payment_reconciliation`, pure. Each provider record finds its document by the reference the
 * document keeps for this adapter (`external_refs[adapter_key]`), else by type and number; a pair
 * whose amount or currency differ is a mismatch. A payment the provider links to an invoice
 * (`invoice_external_id`) is matched by that link instead, never by its own optional reference:
 * the invoice's provider id is the invoice document's `external_refs[adapter_key]` (what an
 * export records) or the provider invoice this comparison paired it with; among the payments
 * applying to that invoice (`applies_to`), the one of the same amount and currency, else the
 * first (a mismatch). Documents no record found are missing in the provider; records that found
 * no document are missing locally.
 */
export function compareRecords(
  adapterKey: string,
  documents: readonly BusinessDocument[],
  records: readonly ProviderRecord[],
): Comparison {
  const byRef = new Map<string, BusinessDocument>();
  const byNumber = new Map<string, BusinessDocument>();
  const invoiceAt = new Map<string, BusinessDocument>();
  const paymentsOf = new Map<string, BusinessDocument[]>();
  for (const d of documents) {
    const ref = d.external_refs?.[adapterKey];
    if (ref) byRef.set(ref, d);
    if (ref && d.document_type === 'invoice') invoiceAt.set(ref, d);
    if (d.document_type === 'payment' && d.applies_to)
      paymentsOf.set(d.applies_to, [...(paymentsOf.get(d.applies_to) ?? []), d]);
    byNumber.set(`${d.document_type}#${d.number}`, d);
  }
  const seen = new Set<string>();
  const out: Comparison = { matched: 0, mismatches: [], missing_in_provider: [], missing_locally: [] };
  const agree = (d: BusinessDocument, r: ProviderRecord) =>
    d.currency === r.currency && compareDecimals(normalizeMoney(d.amount), normalizeMoney(r.amount)) === 0;
  const pair = (d: BusinessDocument | undefined, record: ProviderRecord) => {
    if (!d || seen.has(d.id)) {
      out.missing_locally.push(record);
      return;
    }
    seen.add(d.id);
    if (agree(d, record)) out.matched += 1;
    else out.mismatches.push({ document: d, record });
  };
  const linked = records.filter((r) => r.document_type === 'payment' && r.invoice_external_id);
  for (const record of records) {
    if (record.document_type === 'payment' && record.invoice_external_id) continue;
    const d = byRef.get(record.external_id) ?? byNumber.get(`${record.document_type}#${record.number}`);
    if (d && !seen.has(d.id) && d.document_type === 'invoice' && record.document_type === 'invoice')
      invoiceAt.set(record.external_id, d);
    pair(d, record);
  }
  // After the invoices, so that every invoice this run paired is known by its provider id.
  for (const record of linked) {
    const own = byRef.get(record.external_id);
    const invoice = invoiceAt.get(record.invoice_external_id!);
    const candidates = (invoice ? (paymentsOf.get(invoice.id) ?? []) : []).filter((p) => !seen.has(p.id));
    pair(
      own?.document_type === 'payment' && !seen.has(own.id)
        ? own
        : (candidates.find((p) => agree(p, record)) ?? candidates[0]),
      record,
    );
  }
  out.missing_in_provider = documents.filter((d) => !seen.has(d.id));
  return out;
}

/** The mismatch's exception: its id derived from the mismatch, so finding it again finds this id. */
export function mismatchException(
  run: ReconciliationRun,
  { document: d, record }: Mismatch,
  now: string,
): BusinessException {
  const amountDiffers = d.currency === record.currency;
  const report: ExceptionReport = {
    id: derivedId(
      d.created_at,
      run.tenant_id,
      'payment_reconciliation',
      run.connection_id,
      d.id,
      record.external_id,
      `${d.amount} ${d.currency}`,
      `${record.amount} ${record.currency}`,
    ),
    tenant_id: run.tenant_id,
    exception_type: amountDiffers ? 'reconciliation.amount_mismatch' : 'reconciliation.currency_mismatch',
    severity: 'warning',
    subject_type: 'document',
    subject_id: d.id,
    title: `${d.document_type} ${d.number}: ${d.amount} ${d.currency} here, ${record.amount} ${record.currency} at ${run.adapter_key}`,
    summary: `The ${run.adapter_key} record ${record.external_id} of ${d.document_type} ${d.number} does not agree with the document.`,
    impact: { document_amount: d.amount, provider_amount: record.amount },
    evidence: {
      rule_set: run.rule_set,
      run_id: run.id,
      connection_id: run.connection_id,
      adapter_key: run.adapter_key,
      document: { id: d.id, number: d.number, amount: d.amount, currency: d.currency },
      provider_record: record,
    },
  };
  return openException(report, now);
}
