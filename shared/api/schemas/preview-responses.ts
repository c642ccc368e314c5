import * as z from 'zod/mini';
import { Role } from './auth';
import { FreeForm, named } from './common';
import { DateTime } from './datetime';

/**
 * The result records of the previews (docs/api.md section 9.5): the seed's shared fields, the
 * `preview_digest` and `side_effects: "none"` of every preview, and each record's own fields.
 * Only the OpenAPI document uses them (see responses.ts).
 */

const RiskLevel = named(z.enum(['normal', 'attention', 'critical']), 'RiskLevel');
const items = z.optional(z.array(FreeForm));

const shared = {
  tenant_id: z.string(),
  generated_at: DateTime,
  summary: z.string(),
  api: z.optional(z.record(z.string(), z.string())),
  evidence: items,
  preview_digest: z.string().check(z.regex(/^sha256:[0-9a-f]{64}$/)),
  side_effects: z.literal('none'),
};
const subject = {
  subject_type: z.optional(z.nullable(z.string())),
  subject_id: z.optional(z.nullable(z.string())),
};

export const PreviewFinding = named(
  z.object({
    step: z.int(),
    check: z.string(),
    status: z.enum(['pass', 'warn', 'fail']),
    finding_type: z.string(),
    message: z.string(),
  }),
  'PreviewFinding',
);

export const BusinessBriefingRead = named(
  z.object({
    ...shared,
    ...subject,
    role: Role,
    risk_level: RiskLevel,
    highlights: items,
    recommended_actions: items,
    review_points: items,
    source_systems: z.optional(z.array(z.string())),
  }),
  'BusinessBriefingRead',
);

export const BusinessDetectionPreviewRead = named(
  z.object({
    ...shared,
    ...subject,
    rule_set: z.literal('payment_reconciliation'),
    rules: items,
    observations: items,
    detected_exceptions: items,
    suggested_repair_actions: items,
    source_systems: z.optional(z.array(z.string())),
  }),
  'BusinessDetectionPreviewRead',
);

export const BusinessEscalationPreviewRead = named(
  z.object({
    ...shared,
    ...subject,
    policy: z.literal('exception_triage'),
    risk_level: RiskLevel,
    queues: items,
    escalation_items: items,
    review_points: items,
    suggested_actions: items,
  }),
  'BusinessEscalationPreviewRead',
);

export const BusinessActionPlanPreviewRead = named(
  z.object({
    ...shared,
    ...subject,
    plan_kind: z.literal('exception_resolution'),
    role: Role,
    risk_level: RiskLevel,
    steps: items,
    lanes: items,
    review_points: items,
    approval_gates: items,
    automation_candidates: items,
  }),
  'BusinessActionPlanPreviewRead',
);

export const BusinessActionExecutionPreviewRead = named(
  z.object({
    ...shared,
    ...subject,
    execution_kind: z.literal('action_plan_execution_preview'),
    role: Role,
    status: z.literal('previewed'),
    execution_plan: items,
    preflight_checks: z.optional(z.array(PreviewFinding)),
    dry_run_results: items,
    approval_gates: items,
    rollback_plan: items,
    data_boundaries: items,
  }),
  'BusinessActionExecutionPreviewRead',
);

export const BusinessApprovalGatewayPreviewRead = named(
  z.object({
    ...shared,
    ...subject,
    approval_kind: z.literal('execution_approval_gateway'),
    role: Role,
    status: z.literal('previewed'),
    approval_requests: items,
    policy_checks: z.optional(z.array(PreviewFinding)),
    approver_routing: items,
    commit_unlocks: items,
    audit_trail: items,
    data_boundaries: items,
  }),
  'BusinessApprovalGatewayPreviewRead',
);

export const BusinessIntakePipelinePreviewRead = named(
  z.object({
    ...shared,
    role: Role,
    status: z.literal('previewed'),
    intake_previews: items,
    data_boundaries: items,
    action_plan: z.optional(FreeForm),
    detections: z.optional(FreeForm),
    notification_preview: z.optional(FreeForm),
    workbench_context: z.optional(FreeForm),
    source_systems: z.optional(z.array(z.string())),
  }),
  'BusinessIntakePipelinePreviewRead',
);
