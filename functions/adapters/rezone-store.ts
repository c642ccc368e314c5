import type { RezoneStore } from '#shared/domain/timers/ports';
import { workflowRule } from '#shared/table/entities/workflow-rule';
import type { Db } from './dynamo';
import { transact, type WriteOp } from './transact';
import { timerOp, timerPut } from './timer-store';

/** Moves of zone-dependent timers after a tenant's time-zone change (shared/domain/timers/rezone.ts). */
export const rezoneStore = (db: Db): RezoneStore => ({
  async moveRule(r, next) {
    const result = await transact(db, [
      {
        Update: {
          Key: workflowRule.key({ tenant_id: r.tenant_id, id: r.id }),
          UpdateExpression: 'SET next_run_at = :next',
          ConditionExpression: 'enabled = :on AND next_run_at = :was',
          ExpressionAttributeValues: { ':next': next?.due_at ?? null, ':on': true, ':was': r.was },
        },
      },
      timerOp(r.tenant_id, `rule_schedule:${r.id}`, next),
    ]);
    return result.ok;
  },

  async moveTimer(t, was) {
    const { Put: put } = timerPut(t) as Extract<WriteOp, { Put: unknown }>;
    const result = await transact(db, [
      {
        Put: {
          ...put,
          ConditionExpression: 'due_at = :was',
          ExpressionAttributeValues: { ':was': was },
        },
      },
    ]);
    return result.ok;
  },
});
