import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { RunFilter, WorkflowRun, WorkflowRunStore } from '#shared/domain/workflows/runs';
import { WORKFLOW_RUN_STATUSES } from '#shared/domain/workflows/runs';
import { decodeCursor, encodeCursor } from '#shared/kernel/cursor';
import type { Page } from '#shared/kernel/page';
import { storedReader } from '#shared/table/entity';
import { workflowRun, workflowRunRecord } from '#shared/table/entities/workflow-run';
import { keyAttributes } from '#shared/table/table';
import type { Db } from './dynamo';
import { type KeyQuery, queryPage } from './query';
import { transact } from './transact';
import { timerPut } from './timer-arm';
import { outboxPut } from './outbox';
import { auditPut } from './audit-store';
import { getRecord, putIfAbsent } from './records';
import { decideReviewOp } from './workflow-job-store';
import { reviewItem } from '#shared/table/entities/review-item';
import { toReviewItem } from './review-items';

const read = /* @__PURE__ */ storedReader<WorkflowRun>()(workflowRunRecord);

/**
 * The lowest run id of a time: ids are UUIDv7s of their event's time, whose first 12 hex digits
 * are the milliseconds, so `since` is a sort-key bound on every list.
 */
export const idFloor = (at: string): string => {
  const hex = Date.parse(at).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
};

const sortFrom = (since: string | undefined) =>
  since ? { expression: '#sk >= :sk', values: { ':sk': idFloor(since) } } : undefined;

/** The partition that answers a filter with its key; the others it leaves are filters on it. */
function partitionFor(
  tenantId: string,
  f: RunFilter,
): { q: KeyQuery; filters: Record<string, string | undefined> } {
  if (f.subject_type && f.subject_id)
    return {
      q: workflowRun.query('gsi3', {
        tenant_id: tenantId,
        subject_type: f.subject_type,
        subject_id: f.subject_id,
      }),
      // One subject has few runs: the rule and status narrow an already small partition.
      filters: { rule_id: f.rule_id, status: f.status },
    };
  if (f.rule_id && f.status)
    return {
      q: workflowRun.query('gsi1', { tenant_id: tenantId, rule_id: f.rule_id, status: f.status }),
      filters: {},
    };
  if (f.status)
    return { q: workflowRun.query('gsi2', { tenant_id: tenantId, status: f.status }), filters: {} };
  return { q: workflowRun.query('table', { tenant_id: tenantId }), filters: {} };
}

export const workflowRunStore = (db: Db): WorkflowRunStore => ({
  get: (tenantId, id) => getRecord(db, workflowRun.key({ tenant_id: tenantId, id }), read),

  start: (run) => putIfAbsent(db, workflowRun.item(run)),

  async save(run, timer, event) {
    if (!timer && !event) {
      await db.doc.send(new PutCommand({ TableName: db.tableName, Item: workflowRun.item(run) }));
      return;
    }
    const written = await transact(db, [
      { Put: { Item: workflowRun.item(run) } },
      ...(timer ? [timerPut(timer)] : []),
      ...(event ? [outboxPut(event)] : []),
    ]);
    if (written.ok) return;
    // The event's id derives from the run: an earlier save of this same ending wrote it already.
    if (event && !timer) {
      await db.doc.send(new PutCommand({ TableName: db.tableName, Item: workflowRun.item(run) }));
      return;
    }
    throw new Error(`workflow run ${run.id} was not saved`);
  },

  async replay(next, replays, event, audit, decision) {
    const written = await transact(db, [
      {
        Put: {
          Item: workflowRun.item(next),
          ConditionExpression: '#status IN (:failed, :succeeded) AND size(replays) = :n',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':failed': 'failed', ':succeeded': 'succeeded', ':n': replays },
        },
      },
      outboxPut(event),
      auditPut(audit),
      ...(decision ? [decideReviewOp(decision.decided), auditPut(decision.audit)] : []),
    ]);
    return written.ok;
  },

  reviewItem: (tenantId, id) => getRecord(db, reviewItem.key({ tenant_id: tenantId, id }), toReviewItem),

  async failedIds(tenantId, ruleId, since, until, max) {
    const gsi = keyAttributes('gsi1');
    const ids: string[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :since AND :until',
          ExpressionAttributeNames: { '#pk': gsi.partitionKey, '#sk': gsi.sortKey },
          ExpressionAttributeValues: {
            ':pk': workflowRun.query('gsi1', { tenant_id: tenantId, rule_id: ruleId, status: 'failed' })
              .partition,
            ':since': idFloor(since),
            // Every id of the last millisecond of `until` sorts below its floor plus '~'.
            ':until': until ? `${idFloor(until)}~` : '~',
          },
          ProjectionExpression: 'sk',
          ScanIndexForward: false,
          Limit: max - ids.length,
          ExclusiveStartKey: start,
        }),
      );
      ids.push(...(out.Items ?? []).map((i) => String(i.sk)));
      start = out.LastEvaluatedKey;
    } while (start && ids.length < max);
    return ids;
  },

  list(tenantId, filter, page) {
    const scope = { list: 'workflow-runs', tenant_id: tenantId, ...filter };
    if (filter.rule_id && !filter.status && !(filter.subject_type && filter.subject_id))
      return ruleRuns(db, tenantId, filter.rule_id, filter.since, page, scope);
    const { q, filters } = partitionFor(tenantId, filter);
    const sortCondition = sortFrom(filter.since);
    return queryPage(db, {
      ...q,
      ...(sortCondition ? { sortCondition } : {}),
      scope,
      page,
      map: read,
      filters,
    });
  },
});

/**
 * A rule's runs of every status, newest first: one Query per status partition (gsi1), each of at
 * most a page, merged by id. The cursor is the last id returned, so a page costs at most four
 * page-sized Queries however many runs the rule has.
 */
async function ruleRuns(
  db: Db,
  tenantId: string,
  ruleId: string,
  since: string | undefined,
  page: { limit: number; cursor?: string | undefined },
  scope: Record<string, string | undefined>,
): Promise<Page<WorkflowRun>> {
  const after = page.cursor ? String(decodeCursor(db.cursorSecret, scope, page.cursor).id ?? '') : undefined;
  const gsi = keyAttributes('gsi1');
  const answers = await Promise.all(
    WORKFLOW_RUN_STATUSES.map((status) => {
      const names: Record<string, string> = { '#pk': gsi.partitionKey, '#sk': gsi.sortKey };
      const values: Record<string, string> = {
        ':pk': workflowRun.query('gsi1', { tenant_id: tenantId, rule_id: ruleId, status }).partition,
      };
      let sk = '';
      if (after !== undefined && since) {
        sk = ' AND #sk BETWEEN :since AND :after';
        values[':since'] = idFloor(since);
        values[':after'] = after;
      } else if (after !== undefined) {
        sk = ' AND #sk < :after';
        values[':after'] = after;
      } else if (since) {
        sk = ' AND #sk >= :since';
        values[':since'] = idFloor(since);
      }
      if (!sk) delete names['#sk'];
      return db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: `#pk = :pk${sk}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          // BETWEEN includes the cursor's own run: one more, dropped below.
          Limit: page.limit + (after !== undefined && since ? 1 : 0),
        }),
      );
    }),
  );
  const merged = answers
    .flatMap((a) => a.Items ?? [])
    .filter((item) => item.sk !== after)
    .sort((a, b) => (String(a.sk) < String(b.sk) ? 1 : -1));
  const more = merged.length > page.limit || answers.some((a) => a.LastEvaluatedKey);
  const items = merged.slice(0, page.limit);
  const last = items.at(-1);
  return {
    items: items.map(read),
    next_cursor: more && last ? encodeCursor(db.cursorSecret, scope, { id: last.sk }) : null,
  };
}
