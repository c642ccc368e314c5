import type { BusinessDocument } from '#shared/domain/documents/ports';
import type { BusinessException } from '#shared/domain/exceptions/ports';
import type { PreviewData } from '#shared/domain/previews/ports';
import { actionExecution, approvalGateway } from '#shared/domain/previews/execution';

/**
 * The demo tenant's records behind the previews shown in `/demo/public`, and how a preview's answer
 * becomes the demo's rows. The demo computes them with the real previews
 * (shared/domain/previews/), and tests/e2e/demo-agreement.test.ts records the same data through
 * the real API, runs the real endpoints and maps their answers with the same functions: one
 * source of truth for what a preview of this data shows.
 */

/** The moment the demo's previews are computed at (the month-end close). */
export const DEMO_PREVIEW_AT = new Date('2026-03-31T16:00:00.000Z');

const at = '2026-03-31T09:00:00.000Z';

export const DEMO_INVOICE = {
  document_type: 'invoice',
  number: 'INV-20417',
  counterparty: 'Cedar Mill Lumber (fictional)',
  currency: 'USD',
  amount: '5400.00',
  issued_on: '2026-03-16',
  due_on: '2026-04-15',
} as const;

/** The payment, 10% short: the supplier's early-payment discount. */
export const DEMO_PAYMENT = {
  document_type: 'payment',
  number: 'PAY-88120',
  counterparty: 'Cedar Mill Lumber (fictional)',
  currency: 'USD',
  amount: '4860.00',
  issued_on: '2026-03-31',
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

const document = (
  id: string,
  fields: typeof DEMO_INVOICE | typeof DEMO_PAYMENT,
  extra: Partial<BusinessDocument>,
) =>
  ({
    id,
    tenant_id: 'alder-creek-supply',
    due_on: null,
    external_refs: {},
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
      observation_ids: [],
      detected_at: at,
      created_at: at,
      updated_at: at,
      resolved_at: null,
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
