import type { PreviewData } from '#shared/domain/previews/ports';
import type { briefing } from '#shared/domain/previews/briefing';
import type { approvalGateway } from '#shared/domain/previews/approval-gateway';
import type { actionExecution } from '#shared/domain/previews/execution';
import type { intakePipeline } from '#shared/domain/previews/intake';

/**
 * How a preview's answer becomes the demo's rows in `/demo/public`: the demo maps the previews it
 * computes over its own records (./previews.ts), and tests/e2e/demo-agreement.test.ts maps the
 * real endpoints' answers with the same functions and expects the same rows.
 */

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
