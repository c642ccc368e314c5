import type * as core from 'zod/v4/core';
import { TenantPath } from '#shared/api/schemas/common';
import {
  BusinessActionExecutionPreviewCreate,
  BusinessActionPlanPreviewCreate,
  BusinessApprovalGatewayPreviewCreate,
  BusinessBriefingPreviewCreate,
  BusinessDetectionPreviewCreate,
  BusinessEscalationPreviewCreate,
  BusinessIntakePipelinePreviewCreate,
} from '#shared/api/schemas/previews';
import { op } from './operation';

/** A preview: everyone in the tenant may run it; it persists nothing (docs/api.md section 9.5). */
const preview = <B extends core.$ZodType>(kind: string, summary: string, body: B) =>
  op({
    group: 'previews',
    method: 'POST',
    path: `/tenants/{tenant_id}/previews/${kind}`,
    summary,
    auth: 'bearer',
    permission: 'previews.run',
    params: TenantPath,
    body,
    status: 200,
  });

/** Previews (docs/api.md section 9.5). */
export const PREVIEWS_OPERATIONS = {
  'previews.briefing': preview(
    'briefing',
    'What needs attention for a role, with a risk level (persists nothing)',
    BusinessBriefingPreviewCreate,
  ),
  'previews.detection': preview(
    'detection',
    'Payment reconciliation findings over the documents (persists nothing)',
    BusinessDetectionPreviewCreate,
  ),
  'previews.escalation': preview(
    'escalation',
    'Open exceptions triaged by severity and age into queues (persists nothing)',
    BusinessEscalationPreviewCreate,
  ),
  'previews.actionPlan': preview(
    'action-plan',
    'Steps, lanes and approval gates to resolve the open exceptions (persists nothing)',
    BusinessActionPlanPreviewCreate,
  ),
  'previews.actionExecution': preview(
    'action-execution',
    'Dry run or approval request of action steps: preflight, before and after, rollback (persists nothing)',
    BusinessActionExecutionPreviewCreate,
  ),
  'previews.approvalGateway': preview(
    'approval-gateway',
    'Approval requests, policy checks and approver routing with dual control (persists nothing)',
    BusinessApprovalGatewayPreviewCreate,
  ),
  'previews.intakePipeline': preview(
    'intake-pipeline',
    'Up to 8 provider events normalised, with detections, plan and drafts (persists nothing)',
    BusinessIntakePipelinePreviewCreate,
  ),
} as const;
