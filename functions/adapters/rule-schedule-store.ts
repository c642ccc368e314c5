import type { RuleScheduleStore } from '#shared/domain/timers/ports';
import { workflowRule } from '#shared/table/entities/workflow-rule';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { transact, type WriteOp } from './transact';
import { outboxPut } from './outbox';
import { timerPut } from './timer-store';

/** A scheduled rule's firing, written on the condition the timer was armed for (docs/api.md section 9.7). */
export const ruleScheduleStore = (db: Db): RuleScheduleStore => ({
  async recordRun(r, audit, event) {
    const ops: WriteOp[] = [
      {
        Update: {
          Key: workflowRule.key({ tenant_id: r.tenant_id, id: r.id }),
          UpdateExpression: 'SET next_run_at = :next',
          ConditionExpression: 'enabled = :on AND next_run_at = :due',
          ExpressionAttributeValues: { ':next': r.next?.due_at ?? null, ':on': true, ':due': r.due },
        },
      },
      auditPut(audit),
      outboxPut(event),
    ];
    // The claim deleted the timer that fired; the next one is a new Put.
    if (r.next) ops.push(timerPut(r.next));
    const result = await transact(db, ops);
    if (result.ok) return 'written';
    return result.failed.includes(0) ? 'stale' : 'duplicate';
  },
});
