import type { OutboxEvent } from '#shared/domain/outbox';
import type { AuditEvent } from '#shared/domain/audit';
import type { TaskDueStore, Timer, TimerStore } from '#shared/domain/timers/ports';
import { task } from '#shared/table/entities/task';
import { timer, TIMER_DUE_SHARDS, timerRecord } from '#shared/table/entities/timer';
import { reader } from '#shared/table/entity';
import { auditPut } from './audit-store';
import { below, queryFrom, queryPage } from './query';
import type { Db } from './dynamo';
import { transact } from './transact';
import { outboxPut } from './outbox';
import { timerKey } from './timer-arm';

export { timerDelete, timerOp, timerPut } from './timer-arm';

/** The timer as read: the optional fields (rule_id, policy_id, level) only where the timer has them. */
const readTimer = /* @__PURE__ */ reader<Timer>()(timerRecord);
const toTimer = (item: Record<string, unknown>): Timer => {
  const t = readTimer(item);
  for (const optional of ['rule_id', 'policy_id', 'level'] as const)
    if (t[optional] === null) delete t[optional];
  return t;
};

export const timerStore = (db: Db): TimerStore => ({
  async dueBy(now, limit) {
    const out: Timer[] = [];
    // `<due_at>#...` sorts below `<now>$` exactly when due_at <= now ('#' < '$').
    for (let shard = 0; shard < TIMER_DUE_SHARDS && out.length < limit; shard++) {
      const q = { ...timer.query('gsi3', { shard }), sortCondition: below(`${now}$`), forward: true };
      const page = await queryFrom(db, q, undefined, limit - out.length);
      out.push(...(page.Items ?? []).map(toTimer));
    }
    return out;
  },

  async claim(t, firing) {
    const result = await transact(db, [
      {
        Delete: {
          Key: timerKey(t.tenant_id, t.id),
          ConditionExpression: 'due_at = :due',
          ExpressionAttributeValues: { ':due': t.due_at },
        },
      },
      outboxPut(firing),
    ]);
    return result.ok ? 'fired' : 'gone';
  },

  list(tenantId, filter, page) {
    const scope = { list: 'timers', tenant_id: tenantId, ...filter };
    return queryPage(db, {
      scope,
      page,
      map: toTimer,
      ...timer.query('gsi1', { tenant_id: tenantId }),
      forward: true,
      filters: { kind: filter.kind, subject_type: filter.subject_type, subject_id: filter.subject_id },
    });
  },
});

export const taskDueStore = (db: Db): TaskDueStore => ({
  async recordOverdue(t, audit: AuditEvent, event: OutboxEvent) {
    const result = await transact(db, [
      {
        ConditionCheck: {
          Key: task.key({ tenant_id: t.tenant_id, id: t.id }),
          ConditionExpression: '#status IN (:open, :progress) AND due_at = :due',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':open': 'open', ':progress': 'in_progress', ':due': t.due_at },
        },
      },
      auditPut(audit),
      outboxPut(event),
    ]);
    if (result.ok) return 'written';
    return result.failed.includes(0) ? 'stale' : 'duplicate';
  },
});
