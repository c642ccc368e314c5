import type { WorkflowRule, WorkflowRuleStore } from '#shared/domain/workflows/ports';
import { reader } from '#shared/table/entity';
import { workflowRule, workflowRuleRecord } from '#shared/table/entities/workflow-rule';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getItem, getRecord, putIf, putNew } from './records';
import { queryAll, queryPage } from './query';
import { transact, type WriteOp } from './transact';
import { member } from '#shared/table/entities/member';
import { ruleEventType, ruleScheduleTimer } from '#shared/domain/workflows/schedule';
import { timerId } from '#shared/domain/timers/arming';
import { timerDelete, timerOp, timerPut } from './timer-store';

const scheduleTimerId = (ruleId: string) => timerId('rule_schedule', ruleId);

const toRule = /* @__PURE__ */ reader<WorkflowRule>()(workflowRuleRecord);

/** The item of a rule: only an enabled one is keyed under its event type in gsi1. */
export const ruleItem = (rule: WorkflowRule) =>
  workflowRule.item(rule, { ...rule, enabled_event_type: rule.enabled ? ruleEventType(rule) : null });

export const workflowRuleStore = (db: Db): WorkflowRuleStore => ({
  async create(rule, audit) {
    const ops: WriteOp[] = [putNew(ruleItem(rule)), auditPut(audit)];
    const timer = ruleScheduleTimer(rule);
    if (timer) ops.push(timerPut(timer));
    const result = await transact(db, ops);
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

  async update(next, expected, audit) {
    const result = await transact(db, [
      putIf(ruleItem(next), {
        ConditionExpression: expected.next_run_at
          ? 'version = :v AND next_run_at = :n'
          : 'version = :v AND (attribute_not_exists(next_run_at) OR next_run_at = :null)',
        ExpressionAttributeValues: expected.next_run_at
          ? { ':v': expected.version, ':n': expected.next_run_at }
          : { ':v': expected.version, ':null': null },
      }),
      auditPut(audit),
      timerOp(next.tenant_id, scheduleTimerId(next.id), ruleScheduleTimer(next)),
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
      timerDelete(tenantId, scheduleTimerId(id)),
    ]);
    return result.ok;
  },

  async enabledFor(tenantId, eventType) {
    const query = workflowRule.query('gsi1', { tenant_id: tenantId, enabled_event_type: eventType });
    return (await queryAll(db, { ...query, forward: true })).map(toRule);
  },
});

/** Whether a user is a member of a tenant (one GetItem): what a rule's `notify` action may name. */
export const ruleMembers = (db: Db) => ({
  isMember: async (tenantId: string, userId: string) =>
    (await getItem(db, member.key({ tenant_id: tenantId, user_id: userId }))) !== undefined,
});
