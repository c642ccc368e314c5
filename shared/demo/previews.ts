import type { BusinessDocument } from '#shared/domain/documents/ports';
import type { BusinessException } from '#shared/domain/exceptions/ports';
import type { PreviewData } from '#shared/domain/previews/ports';
import type { briefing } from '#shared/domain/previews/briefing';
import type { approvalGateway } from '#shared/domain/previews/approval-gateway';
import type { actionExecution } from '#shared/domain/previews/execution';
import type { IntakeEvent, intakePipeline } from '#shared/domain/previews/intake';

/**
 * The demo tenant's records behind the previews shown in `/demo/public`, and how a preview's answer
 * becomes the demo's rows. The demo computes them with the real previews
 * (shared/domain/previews/), and tests/e2e/demo-agreement.test.ts records the same data through
 * the real API, runs the real endpoints and maps their answers with the same functions: one
 * source of truth for what a preview of this data shows.
 */

/** The moment the demo's previews are computed at (the month-end close). */
export const DEMO_PREVIEW_AT = new Date('2026-03-31T16:00:00.000Z');

/** When the demo tenant's records were recorded: the morning of the same day. */
export const DEMO_RECORDED_AT = new Date('2026-03-31T09:00:00.000Z');

const at = DEMO_RECORDED_AT.toISOString();

export const DEMO_INVOICE = {
  document_type: 'invoice',
  number: 'INV-20417',
  counterparty: 'Cedar Mill Lumber (fictional)',
  currency: 'USD',
  amount: '5400.00',
  issued_on: '2026-03-16',
  due_on: '2026-04-15',
  external_refs: { ledgerly: 'll-inv-20417' },
} as const;

/** The payment, 10% short: the supplier's early-payment discount. */
export const DEMO_PAYMENT = {
  document_type: 'payment',
  number: 'PAY-88120',
  counterparty: 'Cedar Mill Lumber (fictional)',
  currency: 'USD',
  amount: '4860.00',
  issued_on: '2026-03-31',
  external_refs: { bank_feed: 'pb-88120' },
} as const;

export const DEMO_EXCEPTION = {
  exception_type: 'payment_reconciliation.payment_amount_mismatch',
  severity: 'warning',
  title: 'INV-20417 paid 540.00 short',
  summary: 'PAY-88120 covers 4860.00 of 5400.00',
  subject_type: 'document',
} as const;

export const DEMO_IDS = { invoice: 'demo-inv-20417', payment: 'demo-pay-88120', exception: 'demo-exc-1' };
const ids = DEMO_IDS;

/** The requests the demo's previews answer (with the steps of `demoSteps`). */
export const DEMO_EXECUTION_REQUEST = {
  execution_kind: 'action_plan_execution_preview',
  execution_mode: 'dry_run',
  role: 'manager',
  include_preflight: true,
  include_rollback_plan: true,
} as const;

export const DEMO_GATEWAY_REQUEST = {
  approval_kind: 'execution_approval_gateway',
  approver_role: 'manager',
  requester_role: 'manager',
  role: 'owner',
  include_dual_control: true,
} as const;

/** The briefing the demo shows: the accountant's view of the invoice. */
export const demoBriefing = (invoiceId: string) =>
  ({
    role: 'accountant',
    include_resolved: false,
    limit: 20,
    subject_type: 'document',
    subject_id: invoiceId,
  }) as const;

const counterparty = DEMO_INVOICE.counterparty;

/**
 * The provider events of the demo's intake pipeline, at the month-end close: the bank feed sends
 * the short payment again under a new number, the accounting system a new invoice and an update of
 * INV-20417 (already recorded), the bank a payment with no invoice reference, and the CRM an event
 * that is no document at all.
 */
export const DEMO_INTAKE_EVENTS: IntakeEvent[] = [
  {
    source: 'bank_feed',
    event_type: 'payment.received',
    external_id: 'pb-88127',
    occurred_at: '2026-03-31T14:05:00Z',
    payload: {
      number: 'PAY-88127',
      counterparty,
      currency: 'USD',
      amount: '4860.00',
      invoice_number: 'INV-20417',
    },
  },
  {
    source: 'ledgerly',
    event_type: 'invoice.created',
    external_id: 'll-inv-20452',
    payload: {
      number: 'INV-20452',
      counterparty,
      currency: 'USD',
      amount: '1250.00',
      issued_on: '2026-03-30',
      due_on: '2026-04-29',
    },
  },
  {
    source: 'ledgerly',
    event_type: 'invoice.updated',
    external_id: 'll-inv-20417',
    payload: {
      number: DEMO_INVOICE.number,
      counterparty,
      currency: DEMO_INVOICE.currency,
      amount: DEMO_INVOICE.amount,
      issued_on: DEMO_INVOICE.issued_on,
      due_on: DEMO_INVOICE.due_on,
    },
  },
  {
    source: 'bank_feed',
    event_type: 'payment.received',
    external_id: 'pb-88140',
    payload: {
      number: 'PAY-88140',
      counterparty: 'Birch Hollow Builders (fictional)',
      currency: 'USD',
      amount: '310.00',
      issued_on: '2026-03-31',
    },
  },
  { source: 'crm', event_type: 'contact.updated', external_id: 'crm-5521', payload: {} },
];

export const DEMO_INTAKE_REQUEST = {
  events: DEMO_INTAKE_EVENTS,
  include_notification_drafts: true,
  role: 'operator',
} as const;

const document = (
  id: string,
  fields: typeof DEMO_INVOICE | typeof DEMO_PAYMENT,
  extra: Partial<BusinessDocument>,
) =>
  ({
    id,
    tenant_id: 'alder-creek-supply',
    due_on: null,
    lines: [],
    applies_to: null,
    status: 'open',
    created_at: at,
    updated_at: at,
    ...fields,
    ...extra,
  }) as BusinessDocument;

export const DEMO_RECORDS: PreviewData = {
  documents: [
    document(ids.invoice, DEMO_INVOICE, {}),
    document(ids.payment, DEMO_PAYMENT, { applies_to: ids.invoice }),
  ],
  exceptions: [
    {
      id: ids.exception,
      tenant_id: 'alder-creek-supply',
      status: 'open',
      subject_id: ids.invoice,
      impact_json: '{}',
      evidence_json: '{}',
      detected_at: at,
      created_at: at,
      updated_at: at,
      resolved_at: null,
      escalation: null,
      ...DEMO_EXCEPTION,
    } as BusinessException,
  ],
  tasks: [],
  notifications: [],
};

/** The steps the demo runs: acknowledge the exception, then mark the invoice paid. */
export const demoSteps = (exceptionId: string, invoiceId: string) => [
  { action: 'acknowledge_exception', exception_id: exceptionId },
  { action: 'mark_document_paid', document_id: invoiceId },
];

/** Names a record by what a person knows it by (ids differ between the demo and a real tenant). */
export type Labels = (entityType: string | null, id: string | null) => string;

export const labelsOf =
  (data: Pick<PreviewData, 'documents' | 'exceptions'>): Labels =>
  (entityType, id) => {
    if (entityType === 'document') return `document ${data.documents.find((d) => d.id === id)?.number ?? id}`;
    if (entityType === 'exception')
      return `exception ${data.exceptions.find((e) => e.id === id)?.exception_type ?? id}`;
    return `${entityType} ${id}`;
  };

/**
 * A preview's text with each record id of the data named as `labelsOf` names it ("on document
 * INV-20417", not the id).
 */
export const mentionsOf = (data: Pick<PreviewData, 'documents' | 'exceptions'>) => {
  const label = labelsOf(data);
  const known = [
    ...data.documents.map((d) => ['document', d.id] as const),
    ...data.exceptions.map((e) => ['exception', e.id] as const),
  ];
  return (text: string) =>
    known.reduce((t, [type, id]) => t.replaceAll(`${type} ${id}`, label(type, id)), text);
};

type Briefing = ReturnType<typeof briefing>;
type Intake = ReturnType<typeof intakePipeline>;
type Execution = ReturnType<typeof actionExecution>;
type Gateway = ReturnType<typeof approvalGateway>;

const finding = (c: { step: number; check: string; status: string; message: string }) => ({
  check: `step ${c.step}: ${c.check}`,
  result: `${c.status}: ${c.message}`,
});

/** The demo's rows of an action execution preview. */
export const executionRows = (
  r: Pick<
    Execution,
    'execution_plan' | 'preflight_checks' | 'dry_run_results' | 'approval_gates' | 'rollback_plan'
  >,
  label: Labels,
) => ({
  executionPlan: r.execution_plan.map((s) => ({
    step: s.step,
    action: s.action,
    target: label(s.entity_type, s.entity_id),
  })),
  preflightChecks: (r.preflight_checks ?? []).map(finding),
  dryRunResults: r.execution_plan.map((s) => ({
    step: s.step,
    wouldChange: `${label(s.entity_type, s.entity_id)}: ${s.from} to ${s.to}`,
    result: s.outcome,
  })),
  approvalGates: r.approval_gates.map((g) => ({
    gate: `step ${g.step}`,
    approverRole: g.approver_roles.join(' or '),
    state: g.status,
  })),
  rollbackPlan: (r.rollback_plan ?? []).map((s) => ({ step: s.step, undo: s.how })),
});

/** The demo's rows of an approval gateway preview. */
export const gatewayRows = (
  r: Pick<
    Gateway,
    'approval_requests' | 'policy_checks' | 'approver_routing' | 'commit_unlocks' | 'audit_trail'
  >,
  label: Labels,
) => ({
  approvalRequests: r.approval_requests.map((a) => ({
    request: `${a.action} on ${label(a.entity_type, a.entity_id)}`,
    requesterRole: a.requested_by_role,
    approverRole: a.routed_to ?? 'none eligible',
    state: a.status,
  })),
  policyChecks: r.policy_checks.map(finding),
  approverRouting: r.approver_routing.map((x) => ({
    condition: `step ${x.step}: eligible ${x.eligible_roles.join(', ') || 'none'}${x.rejected.map((j) => `; not ${j.role} (${j.reason})`).join('')}`,
    routeTo: x.routed_to ?? 'none',
  })),
  commitUnlocks: r.commit_unlocks.map((c) => ({
    unlock: c.commit
      ? `${c.commit.method} status ${String(c.commit.body.status)} on step ${c.unlocks_step}`
      : `step ${c.unlocks_step}`,
    requires: `${c.after_approval_by ?? 'no'} approval`,
  })),
  auditTrail: r.audit_trail.map((e) => ({
    eventType: e.event_type,
    note: `${label(e.entity_type, e.entity_id)}: ${e.before} to ${e.after} by ${e.actor_role}${e.approved_by_role ? `, approved by ${e.approved_by_role}` : ''}; not written`,
  })),
});

/** The demo's rows of a briefing preview (the context assistant). */
export const briefingRows = (
  r: Pick<
    Briefing,
    | 'role'
    | 'risk_level'
    | 'highlights'
    | 'recommended_actions'
    | 'review_points'
    | 'source_systems'
    | 'summary'
  >,
  label: Labels,
  mention: (text: string) => string,
) => ({
  summary: [
    { label: 'Risk level', value: r.risk_level, detail: r.summary },
    {
      label: 'Recommended actions',
      value: String(r.recommended_actions.length),
      detail: `${r.recommended_actions.filter((a) => a.role_may_act).length} for the ${r.role} role`,
    },
  ],
  role: r.role,
  riskLevel: r.risk_level,
  sourceSystems: r.source_systems,
  highlights: r.highlights.map((h) => ({
    item: label(h.kind, h.id),
    title: h.title,
    severity: h.severity,
    reason: mention(h.reason),
    ageHours: h.age_hours,
  })),
  recommendedActions: r.recommended_actions.map((a) => ({
    item: label(a.kind, a.id),
    action: a.action,
    roleMayAct: a.role_may_act,
    handTo: a.hand_to,
  })),
  reviewPoints: r.review_points.map((p) => ({ point: p.point, count: p.count })),
});

/** The demo's rows of an intake pipeline preview. */
export const intakeRows = (
  r: Pick<
    Intake,
    | 'role'
    | 'intake_previews'
    | 'detections'
    | 'action_plan'
    | 'notification_preview'
    | 'workbench_context'
    | 'source_systems'
    | 'summary'
  >,
  label: Labels,
  mention: (text: string) => string,
) => ({
  summary: [
    {
      label: 'Events',
      value: `${r.workbench_context.accepted} of ${r.workbench_context.events} accepted`,
      detail: r.summary,
    },
    {
      label: 'Detections',
      value: String(r.detections.observations.length),
      detail: r.detections.rule_set,
    },
  ],
  role: r.role,
  sourceSystems: r.source_systems,
  intakePreviews: r.intake_previews.map((e) => ({
    source: e.source,
    event: `${e.event_type} ${e.external_id}`,
    accepted: e.accepted,
    normalizedAs: e.record
      ? `${e.record.document_type} ${e.record.number}: ${e.record.amount} ${e.record.currency}${e.record.applies_to ? `, applies to ${label('document', e.record.applies_to)}` : ''}`
      : null,
    problems: e.problems.map((p) => `${p.field} ${p.code}: ${mention(p.message)}`),
  })),
  workbench: {
    events: r.workbench_context.events,
    accepted: r.workbench_context.accepted,
    refused: r.workbench_context.refused,
    documentsCompared: r.workbench_context.documents_compared,
  },
  detections: {
    ruleSet: r.detections.rule_set,
    findings: r.detections.observations.map((o) => ({
      rule: o.code,
      severity: o.severity,
      documents: o.documents.map((d) => `${d.document_type} ${d.number}`),
      message: o.message,
      repair: o.suggested_repair.action,
    })),
  },
  actionPlan: r.action_plan.steps.map((s) => ({
    step: s.step,
    action: s.action,
    lane: s.lane,
    description: s.description,
  })),
  notificationDrafts: r.notification_preview.drafts.map((d) => ({
    channel: d.channel,
    audienceRole: d.audience_role,
    subject: d.subject,
    status: d.status,
    wouldQueue: d.would_queue,
  })),
});
