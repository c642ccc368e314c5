import type { Task, TaskStore } from '#shared/domain/tasks/ports';
import { member } from '#shared/table/entities/member';
import { task, taskRecord } from '#shared/table/entities/task';
import { reader } from '#shared/table/entity';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getRecord, putIf, putNew } from './records';
import { queryPage } from './query';
import { transact, type WriteOp } from './transact';
import { outboxPut } from './outbox';
import { timerOp, timerPut } from './timer-store';
import { taskDueTimer, timerId } from '#shared/domain/timers/arming';

const toTask = /* @__PURE__ */ reader<Task>()(taskRecord);

/** The condition that `userId` is a member of the tenant (docs/api.md section 9: an assignee). */
const isMember = (tenantId: string, userId: string): WriteOp => ({
  ConditionCheck: {
    Key: member.key({ tenant_id: tenantId, user_id: userId }),
    ConditionExpression: 'attribute_exists(pk)',
  },
});

export const taskStore = (db: Db): TaskStore => ({
  async create(t, audit) {
    const ops = [putNew(task.item(t)), auditPut(audit)];
    if (t.assignee_id) ops.push(isMember(t.tenant_id, t.assignee_id));
    // The task's due timer rides in the transaction that gives it its due_at (docs/api.md, "Time events").
    const due = taskDueTimer(t);
    if (due) ops.push(timerPut(due));
    const result = await transact(db, ops);
    if (result.ok) return 'written';
    return result.failed.includes(0) ? 'exists' : 'not_member';
  },

  get: (tenantId, id) => getRecord(db, task.key({ tenant_id: tenantId, id }), toTask),

  /** Assignee (GSI2), then status (GSI1), then the tenant's task partition; the rest are filters. */
  list(tenantId, filter, page) {
    const scope = { list: 'tasks', tenant_id: tenantId, ...filter };
    const { status, assignee_id, subject_type, subject_id } = filter;
    const query = assignee_id
      ? task.query('gsi2', { tenant_id: tenantId, assignee_id })
      : status
        ? task.query('gsi1', { tenant_id: tenantId, status })
        : task.query('table', { tenant_id: tenantId });
    return queryPage(db, {
      scope,
      page,
      map: toTask,
      ...query,
      filters: { status: assignee_id ? status : undefined, subject_type, subject_id },
    });
  },

  async replace(next, readAt, audit, { checkAssignee, outbox }) {
    const ops: WriteOp[] = [
      putIf(task.item(next), {
        ConditionExpression: 'updated_at = :read',
        ExpressionAttributeValues: { ':read': readAt },
      }),
      auditPut(audit),
    ];
    if (outbox) ops.push(outboxPut(outbox));
    if (checkAssignee && next.assignee_id) ops.push(isMember(next.tenant_id, next.assignee_id));
    // Re-armed at the new due_at, or cancelled when the task is finished or has none.
    ops.push(timerOp(next.tenant_id, timerId('task_due', next.id), taskDueTimer(next)));
    const result = await transact(db, ops);
    if (result.ok) return 'written';
    return result.failed.includes(0) ? 'changed' : 'not_member';
  },
});
