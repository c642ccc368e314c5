import {
  createRule,
  deleteRule,
  getRule,
  listRules,
  testRule,
  updateRule,
} from '#shared/domain/workflows/use-cases';
import { getRun, listRuns, replayRun } from '#shared/domain/workflows/runs';
import { getReplay, requestRuleReplay } from '#shared/domain/workflows/replays';
import { workflowReplayStore } from '#functions/adapters/workflow-replay-store';
import { WORKFLOWS_OPERATIONS } from '#shared/api/operations/workflows';
import { dbFor } from '#functions/adapters/dynamo';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { ruleMembers, workflowRuleStore } from '#functions/adapters/workflow-rule-store';
import { workflowRunStore } from '#functions/adapters/workflow-run-store';
import { tenantZones } from '#functions/adapters/tenant-zone';
import { clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';

const db = dbFor(tableConfig());
const deps = { rules: workflowRuleStore(db), zones: tenantZones(db), members: ruleMembers(db), clock };
const runs = { runs: workflowRunStore(db), rules: deps.rules, replays: workflowReplayStore(db), clock };

export const handler = httpHandler(
  WORKFLOWS_OPERATIONS,
  {
    'workflowRules.create': ({ principal, params, body }) =>
      createRule(deps, principal, params.tenant_id, body),
    'workflowRules.list': ({ params, query }) => listRules(deps, params.tenant_id, query),
    'workflowRules.get': ({ params }) => getRule(deps, params.tenant_id, params.rule_id),
    'workflowRules.update': ({ principal, params, body }) =>
      updateRule(deps, principal, params.tenant_id, params.rule_id, body),
    'workflowRules.delete': ({ principal, params }) =>
      deleteRule(deps, principal, params.tenant_id, params.rule_id),
    'workflowRules.test': ({ params, body }) => testRule(deps, params.tenant_id, params.rule_id, body),
    'workflowRuns.list': ({ params, query }) => listRuns(runs, params.tenant_id, query),
    'workflowRuns.get': ({ params }) => getRun(runs, params.tenant_id, params.workflow_run_id),
    'workflowRules.replay': ({ principal, params, body }) =>
      requestRuleReplay(runs, principal, params.tenant_id, params.rule_id, body),
    'workflowReplays.get': ({ params }) => getReplay(runs, params.tenant_id, params.replay_id),
    'workflowRuns.replay': ({ principal, params }) =>
      replayRun(runs, principal, params.tenant_id, params.workflow_run_id),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
