import { PREVIEWS_OPERATIONS } from '#shared/api/operations/previews';
import {
  previewActionExecution,
  previewActionPlan,
  previewApprovalGateway,
  previewBriefing,
  previewDetection,
  previewEscalation,
  previewIntakePipeline,
} from '#shared/domain/previews/use-cases';
import { dbFor } from '#functions/adapters/dynamo';
import { previewReader } from '#functions/adapters/preview-reader';
import { readOnly } from '#functions/adapters/read-only';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';

/** Previews read and never write (docs/api.md section 9.5): the group's only client refuses writes. */
const db = readOnly(dbFor(tableConfig()));
const deps = { reader: previewReader(db), clock };

export const handler = httpHandler(
  PREVIEWS_OPERATIONS,
  {
    'previews.briefing': ({ params, body }) => previewBriefing(deps, params.tenant_id, body),
    'previews.detection': ({ params, body }) => previewDetection(deps, params.tenant_id, body),
    'previews.escalation': ({ params, body }) => previewEscalation(deps, params.tenant_id, body),
    'previews.actionPlan': ({ params, body }) => previewActionPlan(deps, params.tenant_id, body),
    'previews.actionExecution': ({ params, body }) => previewActionExecution(deps, params.tenant_id, body),
    'previews.approvalGateway': ({ params, body }) => previewApprovalGateway(deps, params.tenant_id, body),
    'previews.intakePipeline': ({ params, body }) => previewIntakePipeline(deps, params.tenant_id, body),
  },
  { tenantExists: tenantExistsIn(db), readOnly: true },
);
