import type { WorkflowRule, WorkflowRuleStore } from '#shared/domain/workflows/ports';
import { reader } from '#shared/table/entity';
import { workflowRule, workflowRuleRecord } from '#shared/table/entities/workflow-rule';
import { auditPut } from './audit-store';
import { type Db, putIf, putNew, queryAll, queryPage, transact } from './dynamo';
import { getRecord } from './records';

const toRule = /* @__PURE__ */ reader<WorkflowRule>()(workflowRuleRecord);

/** The item of a rule: only an enabled one is keyed under its event type in gsi1. */
export const ruleItem = (rule: WorkflowRule) =>
  workflowRule.item(rule, { ...rule, enabled_event_type: rule.enabled ? rule.trigger.event_type : null });

export const workflowRuleStore = (db: Db): WorkflowRuleStore => ({
  async create(rule, audit) {
    const result = await transact(db, [putNew(ruleItem(rule)), auditPut(audit)]);
    if (!result.ok) throw new Error('workflow rule id collision');
  },

  get: (tenantId, id) => getRecord(db, workflowRule.key({ tenant_id: tenantId, id }), toRule),

  list(tenantId, page) {
    return queryPage(db, {
      scope: { list: 'workflow-rules', tenant_id: tenantId },
      page,
      map: toRule,
      ...workflowRule.query('table', { tenant_id: tenantId }),
    });
  },

  async update(next, expectedVersion, audit) {
    const result = await transact(db, [
      putIf(ruleItem(next), {
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': expectedVersion },
      }),
      auditPut(audit),
    ]);
    return result.ok;
  },

  async remove(tenantId, id, audit) {
    const result = await transact(db, [
      {
        Delete: {
          Key: workflowRule.key({ tenant_id: tenantId, id }),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      auditPut(audit),
    ]);
    return result.ok;
  },

  async enabledFor(tenantId, eventType) {
    const query = workflowRule.query('gsi1', { tenant_id: tenantId, enabled_event_type: eventType });
    return (await queryAll(db, { ...query, forward: true })).map(toRule);
  },
});
