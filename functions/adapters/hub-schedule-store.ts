import type { HubScheduleStore } from '#shared/domain/timers/ports';
import { integrationConnection } from '#shared/table/entities/integration-connection';
import { reconciliationRun } from '#shared/table/entities/reconciliation-run';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { putNew } from './records';
import { transact, type WriteOp } from './transact';
import { outboxPut } from './outbox';
import { timerPut } from './timer-store';

/** A connection's scheduled runs, written on the condition the firing read (docs/api.md, "Hub schedules"). */
export const hubScheduleStore = (db: Db): HubScheduleStore => ({
  async recordRuns(c, audits, outbox, runs) {
    const ops: WriteOp[] = [
      {
        ConditionCheck: {
          Key: integrationConnection.key({ tenant_id: c.tenant_id, id: c.id }),
          ConditionExpression: 'updated_at = :read AND #status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':read': c.updated_at, ':active': 'active' },
        },
      },
      // The firing's own audit event first: its derived id makes a repeated firing fail here.
      ...audits.map(auditPut),
      ...runs.map((run) => putNew(reconciliationRun.item(run))),
      ...outbox.map(outboxPut),
    ];
    // The claim deleted the timer that fired; the next one is a new Put.
    if (c.next) ops.push(timerPut(c.next));
    const result = await transact(db, ops);
    if (result.ok) return 'written';
    if (result.failed.includes(0)) return 'changed';
    return 'duplicate';
  },
});
