import type * as z from 'zod/mini';
import type {
  BusinessActionExecutionPreviewCreate,
  BusinessActionPlanPreviewCreate,
  BusinessApprovalGatewayPreviewCreate,
  BusinessBriefingPreviewCreate,
  BusinessDetectionPreviewCreate,
  BusinessEscalationPreviewCreate,
  BusinessIntakePipelinePreviewCreate,
  PreviewKind,
} from '#shared/api/schemas/previews';
import { actionPlan } from './action-plan';
import { briefing } from './briefing';
import { apiPath } from './common';
import { detection } from './detection';
import { previewDigest } from './digest';
import { escalation } from './escalation';
import { approvalGateway } from './approval-gateway';
import { actionExecution } from './execution';
import { intakePipeline } from './intake';
import type { PreviewData, PreviewDeps, Source } from './ports';

/**
 * The seven previews (docs/api.md section 9.5): read what the preview needs, compute, and add the
 * shared fields. Nothing here writes: the only port is a reader.
 */

const read = async (deps: PreviewDeps, tenantId: string, sources: readonly Source[]) => {
  const data: PreviewData = { exceptions: [], documents: [], tasks: [], notifications: [] };
  const read = await Promise.all(sources.map((s) => deps.reader[s](tenantId)));
  sources.forEach((s, i) => ((data as Record<Source, unknown[]>)[s] = read[i]!));
  return data;
};

interface Computed {
  summary: string;
  evidence: Record<string, unknown>[];
}

/**
 * One preview run: the records of `sources`, the computation, then the shared fields. The digest
 * covers the request and exactly the records read (not the clock).
 */
async function run<Req extends object, Out extends Computed>(
  deps: PreviewDeps,
  tenantId: string,
  kind: PreviewKind,
  request: Req,
  sources: readonly Source[],
  compute: (data: PreviewData, now: Date, api: (p: string) => string) => Out,
  subject = true,
) {
  const data = await read(deps, tenantId, sources);
  const now = deps.clock.now();
  const result = compute(data, now, (p) => apiPath(tenantId, p));
  const readData = Object.fromEntries(sources.map((s) => [s, data[s]]));
  const s = request as { subject_type?: string | null; subject_id?: string | null };
  return {
    tenant_id: tenantId,
    generated_at: now.toISOString(),
    ...(subject && { subject_type: s.subject_type ?? null, subject_id: s.subject_id ?? null }),
    ...result,
    api: { self: `POST /tenants/${tenantId}/previews/${kind}` },
    evidence: [
      ...sources.map((source) => ({ source, records_read: data[source].length })),
      ...result.evidence,
    ],
    preview_digest: previewDigest(kind, request, readData),
    side_effects: 'none' as const,
  };
}

export const previewBriefing = (
  deps: PreviewDeps,
  tenantId: string,
  request: z.output<typeof BusinessBriefingPreviewCreate>,
) =>
  run(
    deps,
    tenantId,
    'briefing',
    request,
    ['exceptions', 'tasks', 'documents', 'notifications'],
    (data, now, api) => briefing(request, data, now, api),
  );

export const previewDetection = (
  deps: PreviewDeps,
  tenantId: string,
  request: z.output<typeof BusinessDetectionPreviewCreate>,
) =>
  run(deps, tenantId, 'detection', request, ['documents', 'exceptions'], (data, now, api) =>
    detection(request, data, now, api),
  );

export const previewEscalation = (
  deps: PreviewDeps,
  tenantId: string,
  request: z.output<typeof BusinessEscalationPreviewCreate>,
) =>
  run(deps, tenantId, 'escalation', request, ['exceptions'], (data, now, api) => ({
    ...escalation(request, data.exceptions, now, api),
    evidence: [],
  }));

export const previewActionPlan = (
  deps: PreviewDeps,
  tenantId: string,
  request: z.output<typeof BusinessActionPlanPreviewCreate>,
) =>
  run(deps, tenantId, 'action-plan', request, ['exceptions', 'tasks'], (data, _now, api) =>
    actionPlan(request, data, api),
  );

export const previewActionExecution = (
  deps: PreviewDeps,
  tenantId: string,
  request: z.output<typeof BusinessActionExecutionPreviewCreate>,
) =>
  run(deps, tenantId, 'action-execution', request, ['exceptions', 'tasks', 'documents'], (data, now, api) =>
    actionExecution(request, data, now, api),
  );

export const previewApprovalGateway = (
  deps: PreviewDeps,
  tenantId: string,
  request: z.output<typeof BusinessApprovalGatewayPreviewCreate>,
) =>
  run(deps, tenantId, 'approval-gateway', request, ['exceptions', 'tasks', 'documents'], (data, now, api) =>
    approvalGateway(request, data, now, api),
  );

export const previewIntakePipeline = (
  deps: PreviewDeps,
  tenantId: string,
  request: z.output<typeof BusinessIntakePipelinePreviewCreate>,
) =>
  run(
    deps,
    tenantId,
    'intake-pipeline',
    request,
    ['documents'],
    (data, now, api) => intakePipeline(request, data, tenantId, now, api),
    false,
  );
