import type { BusinessDocument } from '#shared/domain/documents/ports';
import { MONEY_PATTERN, normalizeMoney, toMinor } from '#shared/kernel/money';
import type { Role } from '#shared/kernel/policy';
import { plural } from './common';
import { reconcile } from './detection';
import { DATA_BOUNDARIES } from './simulation';

/**
 * Provider events as the service would take them in: each normalised to the document it would
 * become (or refused, with why), the reconciliation findings the new documents would raise
 * against the tenant's documents, the plan and the notification drafts. Raw payloads are never
 * echoed: only the fields read from them.
 */

export interface IntakeEvent {
  source: string;
  event_type: string;
  external_id: string;
  occurred_at?: string | null | undefined;
  payload: Record<string, unknown>;
}

/** Event types and the document each becomes: the first segment names the document type. */
const DOCUMENT_OF: Record<string, BusinessDocument['document_type']> = {
  invoice: 'invoice',
  payment: 'payment',
  credit_note: 'credit_note',
};

/** The payload fields read; anything else in a payload is ignored. */
export const PAYLOAD_FIELDS = [
  'number',
  'counterparty',
  'currency',
  'amount',
  'issued_on',
  'due_on',
  'invoice_number',
];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Normalised {
  index: number;
  event: IntakeEvent;
  problems: { field: string; code: string; message: string }[];
  document: BusinessDocument | null;
  duplicate_of: string | null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

function normalise(
  event: IntakeEvent,
  index: number,
  existing: readonly BusinessDocument[],
  tenantId: string,
  at: string,
): Normalised {
  const problems: Normalised['problems'] = [];
  const prefix = event.event_type.split('.')[0]!;
  // Own keys only: `constructor.created` must not find Object.prototype's member.
  const type = Object.hasOwn(DOCUMENT_OF, prefix) ? DOCUMENT_OF[prefix] : undefined;
  if (!type) {
    problems.push({
      field: 'event_type',
      code: 'unsupported_event_type',
      message: `${event.event_type} is not an invoice.*, payment.* or credit_note.* event.`,
    });
    return { index, event, problems, document: null, duplicate_of: null };
  }
  const p = event.payload;
  const number = str(p.number) ?? event.external_id;
  const counterparty = str(p.counterparty);
  const currency = str(p.currency);
  const amount = str(p.amount);
  const issued = str(p.issued_on) ?? event.occurred_at?.slice(0, 10);
  const due = str(p.due_on);
  if (!counterparty)
    problems.push({ field: 'payload.counterparty', code: 'missing', message: 'is required' });
  if (!currency || !/^[A-Z]{3}$/.test(currency))
    problems.push({ field: 'payload.currency', code: 'invalid', message: 'must be 3 upper-case letters' });
  if (!amount || !MONEY_PATTERN.test(amount) || toMinor(amount) === 0n)
    problems.push({
      field: 'payload.amount',
      code: 'invalid',
      message: 'must be a decimal string over 0 with at most 2 decimals',
    });
  if (!issued || !DATE.test(issued))
    problems.push({
      field: 'payload.issued_on',
      code: 'invalid',
      message: 'must be a date (or the event must carry occurred_at)',
    });
  if (due !== undefined && (!DATE.test(due) || (issued && due < issued)))
    problems.push({
      field: 'payload.due_on',
      code: 'invalid',
      message: 'must be a date not before issued_on',
    });
  const invoiceNumber = str(p.invoice_number);
  const invoice = invoiceNumber
    ? existing.find((d) => d.document_type === 'invoice' && d.number === invoiceNumber)
    : undefined;
  if (invoiceNumber && !invoice && type !== 'invoice')
    problems.push({
      field: 'payload.invoice_number',
      code: 'not_found',
      message: `no invoice ${invoiceNumber} in this tenant`,
    });
  const duplicate = existing.find(
    (d) =>
      d.external_refs?.[event.source] === event.external_id ||
      (d.document_type === type && d.number === number),
  );
  if (problems.length) return { index, event, problems, document: null, duplicate_of: duplicate?.id ?? null };
  return {
    index,
    event,
    problems,
    duplicate_of: duplicate?.id ?? null,
    document: {
      id: `intake-${index + 1}`,
      tenant_id: tenantId,
      document_type: type,
      number,
      counterparty: counterparty!,
      currency: currency!,
      amount: normalizeMoney(amount!),
      issued_on: issued!,
      due_on: due ?? null,
      external_refs: { [event.source]: event.external_id },
      lines: [],
      applies_to: invoice?.id ?? null,
      status: type === 'invoice' ? 'open' : 'draft',
      created_at: at,
      updated_at: at,
    },
  };
}

export interface IntakeRequest {
  events: IntakeEvent[];
  include_notification_drafts: boolean;
  role: Role;
}

export function intakePipeline(
  request: IntakeRequest,
  data: { documents: readonly BusinessDocument[] },
  tenantId: string,
  now: Date,
  api: (p: string) => string,
) {
  const at = now.toISOString();
  const seen = new Set<string>();
  const normalised = request.events.map((event, index) => {
    const n = normalise(event, index, data.documents, tenantId, at);
    const key = `${event.source}\u0000${event.external_id}`;
    if (seen.has(key))
      n.problems.push({
        field: 'external_id',
        code: 'duplicate_in_batch',
        message: 'an earlier event of this source has this id',
      });
    seen.add(key);
    if (n.duplicate_of)
      n.problems.push({
        field: 'external_id',
        code: 'already_recorded',
        message: `already recorded as document ${n.duplicate_of}`,
      });
    return n;
  });
  const accepted = normalised.filter((n) => n.document && n.problems.length === 0);
  const newIds = new Set(accepted.map((n) => n.document!.id));
  const findings = reconcile([...data.documents, ...accepted.map((n) => n.document!)], now).filter((f) =>
    f.documents.some((d) => newIds.has(d.id)),
  );
  const steps = [
    ...accepted.map((n, i) => ({
      step: i + 1,
      action: 'create_document',
      lane: (n.document!.document_type === 'invoice' ? 'accountant' : 'operator') as Role,
      description: `Record ${n.document!.document_type} ${n.document!.number} from ${n.event.source}`,
      api: api('/tenants/{tenant_id}/documents'),
    })),
    ...findings.map((f, i) => ({
      step: accepted.length + i + 1,
      action: 'create_exception',
      lane: 'operator' as Role,
      description: f.message,
      api: api('/tenants/{tenant_id}/exceptions'),
    })),
  ];
  return {
    role: request.role,
    status: 'previewed' as const,
    intake_previews: normalised.map((n) => ({
      index: n.index,
      source: n.event.source,
      event_type: n.event.event_type,
      external_id: n.event.external_id,
      accepted: !!n.document && n.problems.length === 0,
      normalized_as: n.document ? `document.${n.document.document_type}` : null,
      record: n.document && {
        document_type: n.document.document_type,
        number: n.document.number,
        counterparty: n.document.counterparty,
        currency: n.document.currency,
        amount: n.document.amount,
        issued_on: n.document.issued_on,
        due_on: n.document.due_on,
        applies_to: n.document.applies_to,
        external_refs: n.document.external_refs,
      },
      duplicate_of: n.duplicate_of,
      problems: n.problems,
    })),
    detections: {
      rule_set: 'payment_reconciliation',
      observations: findings.map((f) => ({
        code: f.code,
        severity: f.severity,
        message: f.message,
        documents: f.documents,
        suggested_repair: f.suggested_repair,
      })),
    },
    action_plan: {
      steps,
      lanes: [...new Set(steps.map((s) => s.lane))].map((role) => ({
        role,
        steps: steps.filter((s) => s.lane === role).map((s) => s.step),
      })),
    },
    notification_preview: request.include_notification_drafts
      ? {
          drafts: findings.map((f) => ({
            channel: 'in_app',
            audience_role: request.role,
            subject: `${f.code.replaceAll('_', ' ')} (${f.severity})`,
            body: f.message,
            status: 'draft',
            would_queue: false,
          })),
        }
      : { drafts: [], included: false },
    workbench_context: {
      role: request.role,
      events: request.events.length,
      accepted: accepted.length,
      refused: request.events.length - accepted.length,
      documents_compared: data.documents.length,
    },
    data_boundaries: [
      ...DATA_BOUNDARIES,
      {
        boundary: 'payloads',
        access: 'read',
        note: `only ${PAYLOAD_FIELDS.join(', ')} are read; payloads are not echoed or kept`,
      },
    ],
    source_systems: [...new Set(request.events.map((e) => e.source))].sort(),
    summary: `${plural(request.events.length, 'event')}: ${accepted.length} accepted, ${request.events.length - accepted.length} refused; ${plural(findings.length, 'finding')} against the tenant's ${plural(data.documents.length, 'document')}.`,
    evidence: [{ events: request.events.length, accepted: accepted.length, findings: findings.length }],
  };
}
