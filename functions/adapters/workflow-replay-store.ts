import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { WorkflowReplay, WorkflowReplayStore } from '#shared/domain/workflows/replays';
import { storedReader } from '#shared/table/entity';
import { workflowReplay, workflowReplayRecord } from '#shared/table/entities/workflow-replay';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getRecord, putNew } from './records';
import { transact } from './transact';
import { outboxPut } from './outbox';

const read = /* @__PURE__ */ storedReader<WorkflowReplay>()(workflowReplayRecord);

export const workflowReplayStore = (db: Db): WorkflowReplayStore => ({
  async create(replay, event, audit) {
    const written = await transact(db, [
      putNew(workflowReplay.item(replay)),
      outboxPut(event),
      auditPut(audit),
    ]);
    if (!written.ok) throw new Error(`workflow replay ${replay.id} was not written`);
  },
  get: (tenantId, id) => getRecord(db, workflowReplay.key({ tenant_id: tenantId, id }), read),
  async save(replay) {
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: workflowReplay.item(replay) }));
  },
});
