import * as z from 'zod/mini';
import { Role } from './auth';
import { ADAPTER_KEYS } from '#shared/kernel/names';
import { FreeForm, named, SubjectId, SubjectType, text, timestamp } from './common';

/**
 * The request records of the previews (docs/api.md section 9.5), with the defaults and bounds of
 * the seed: a preview computes from the tenant's records and persists nothing. `role` shapes the
 * result (what that role would see first); it grants nothing.
 */

const subject = {
  subject_type: z.optional(z.nullable(SubjectType)),
  subject_id: z.optional(z.nullable(SubjectId)),
};

const limit = (max: number, fallback: number) =>
  z._default(z.int().check(z.minimum(1), z.maximum(max)), fallback);

const role = z._default(Role, 'operator');

/** A step of an execution or approval preview: `{action, exception_id | document_id | task_id}`. */
const Steps = z.array(FreeForm).check(z.maxLength(10));

export const BusinessBriefingPreviewCreate = named(
  z.strictObject({
    role,
    include_resolved: z._default(z.boolean(), false),
    limit: limit(50, 20),
    ...subject,
  }),
  'BusinessBriefingPreviewCreate',
);

export const BusinessActionPlanPreviewCreate = named(
  z.strictObject({
    plan_kind: z._default(z.literal('exception_resolution'), 'exception_resolution'),
    role,
    include_resolved: z._default(z.boolean(), false),
    limit: limit(50, 20),
    ...subject,
  }),
  'BusinessActionPlanPreviewCreate',
);

export const BusinessActionExecutionPreviewCreate = named(
  z.strictObject({
    execution_kind: z._default(z.literal('action_plan_execution_preview'), 'action_plan_execution_preview'),
    execution_mode: z._default(z.enum(['dry_run', 'approval_request']), 'dry_run'),
    role,
    include_preflight: z._default(z.boolean(), true),
    include_rollback_plan: z._default(z.boolean(), true),
    action_steps: z.optional(Steps),
    ...subject,
  }),
  'BusinessActionExecutionPreviewCreate',
);

export const BusinessApprovalGatewayPreviewCreate = named(
  z.strictObject({
    approval_kind: z._default(z.literal('execution_approval_gateway'), 'execution_approval_gateway'),
    approver_role: z._default(Role, 'owner'),
    requester_role: z._default(Role, 'operator'),
    role,
    include_dual_control: z._default(z.boolean(), true),
    execution_plan: z.optional(Steps),
    ...subject,
  }),
  'BusinessApprovalGatewayPreviewCreate',
);

export const BusinessDetectionPreviewCreate = named(
  z.strictObject({
    rule_set: z._default(z.literal('payment_reconciliation'), 'payment_reconciliation'),
    limit: limit(100, 50),
    ...subject,
  }),
  'BusinessDetectionPreviewCreate',
);

export const BusinessEscalationPreviewCreate = named(
  z.strictObject({
    policy: z._default(z.literal('exception_triage'), 'exception_triage'),
    include_resolved: z._default(z.boolean(), false),
    limit: limit(50, 20),
    ...subject,
  }),
  'BusinessEscalationPreviewCreate',
);

/** One provider event. `source` is the key of the catalog's adapter it came through. */
export const BusinessProviderIntakePreviewCreate = named(
  z.strictObject({
    source: z.enum(ADAPTER_KEYS),
    event_type: text(2, 128).check(
      z.regex(/^[a-z0-9][a-z0-9_.-]*$/, 'must match ^[a-z0-9][a-z0-9_.-]*$, like "payment.received"'),
    ),
    external_id: text(1, 128),
    occurred_at: z.optional(z.nullable(timestamp())),
    payload: FreeForm,
  }),
  'BusinessProviderIntakePreviewCreate',
);

export const BusinessIntakePipelinePreviewCreate = named(
  z.strictObject({
    events: z.array(BusinessProviderIntakePreviewCreate).check(z.minLength(1), z.maxLength(8)),
    include_notification_drafts: z._default(z.boolean(), true),
    role,
  }),
  'BusinessIntakePipelinePreviewCreate',
);

export const PREVIEW_KINDS = [
  'briefing',
  'detection',
  'escalation',
  'action-plan',
  'action-execution',
  'approval-gateway',
  'intake-pipeline',
] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];
