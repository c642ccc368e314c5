import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditStore } from '#functions/adapters/audit-store';
import { backfillIndexKeys } from '#functions/adapters/index-backfill';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { workflowJobStore } from '#functions/adapters/workflow-job-store';
import { workflowRuleStore } from '#functions/adapters/workflow-rule-store';
import { workflowRunStore } from '#functions/adapters/workflow-run-store';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import { decideReviewItem } from '#shared/domain/notifications/use-cases';
import type { WorkflowJob } from '#shared/domain/workflows/ports';
import { decideWorkflowAction } from '#shared/domain/workflows/review';
import { InvalidTransitionError } from '#shared/kernel/errors';
import { newId, systemClock } from '#shared/kernel/ids';
import { reviewItem, storedReviewItem } from '#shared/table/entities/review-item';
import { countingQueries, freshDb, loadItems } from '#tests/support/db';
import { audit, drain, principal } from '#tests/support/fixtures';

/**
 * One review queue for two kinds of jobs (docs/api.md sections 7 and 9.1): items written before
 * kinds existed read and filter as notification items, and a workflow_action item is decided by
 * the workflow concern, keeping the job a retry needs.
 */

let db: Db;
const T = 'acme';
const now = new Date().toISOString();
const operator = principal('operator-1', {}, true);

const job: WorkflowJob = {
  rule_id: 'rule-1',
  rule_name: 'Critical needs a manager',
  event_id: 'event-1',
  event_type: 'exception.created',
  action_index: 0,
  action: {
    type: 'create_task',
    title: 'x',
    assignee_role: null,
    due_at: null,
    subject_type: null,
    subject_id: null,
    missing_fields: [],
  },
};
const workflowItem = (): ReviewItem => ({
  id: newId(),
  tenant_id: T,
  notification_id: null,
  channel: null,
  reason: 'invalid_action',
  detail: 'the task title is "x" once filled',
  status: 'open',
  decision: null,
  note: null,
  decided_by: null,
  decided_at: null,
  created_at: now,
  updated_at: now,
  kind: 'workflow_action',
  subject_id: 'rule-1:event-1:0',
});

let legacyId: string;
let workflowId: string;

beforeAll(async () => {
  ({ db } = await freshDb());
  // A notification review item as the service wrote them before kinds existed.
  legacyId = newId();
  await db.doc.send(
    new PutCommand({
      TableName: db.tableName,
      Item: reviewItem.item({
        id: legacyId,
        tenant_id: T,
        notification_id: 'n-1',
        channel: 'telegram',
        reason: 'gated',
        detail: 'provider gate closed: not_connected',
        status: 'open',
        decision: null,
        note: null,
        decided_by: null,
        decided_at: null,
        created_at: now,
        updated_at: now,
      }),
    }),
  );
  const item = workflowItem();
  workflowId = item.id;
  expect(await workflowJobStore(db).openReview(item, job, audit(T, 'workflow_rule', 'rule-1'))).toBe(true);
  expect(await workflowJobStore(db).openReview(item, job, audit(T, 'workflow_rule', 'rule-1'))).toBe(false);
});

const list = (filter: Parameters<ReturnType<typeof notificationStore>['listReviewItems']>[1]) =>
  drain((cursor) => notificationStore(db).listReviewItems(T, filter, { limit: 1, cursor }));

describe('review item kinds', () => {
  it('an item written before kinds existed reads as a notification item about its notification', async () => {
    const legacy = await notificationStore(db).getReviewItem(T, legacyId);
    expect(legacy).toMatchObject({ kind: 'notification', subject_id: 'n-1', notification_id: 'n-1' });
  });

  it('?kind filters, the old items included in notification once backfilled, across pages and with status', async () => {
    const ids = async (filter: Parameters<typeof list>[0]) => (await list(filter)).map((i) => i.id).sort();
    expect(await ids({})).toEqual([legacyId, workflowId].sort());
    // Written before the kind index, the old item has no entry in it until the one-off backfill.
    expect(await ids({ kind: 'notification' })).toEqual([]);
    expect(await backfillIndexKeys(db)).toBe(1);
    expect(await backfillIndexKeys(db)).toBe(0);
    expect(await ids({ kind: 'notification' })).toEqual([legacyId]);
    expect(await ids({ kind: 'workflow_action' })).toEqual([workflowId]);
    expect(await ids({ kind: 'workflow_action', status: 'open' })).toEqual([workflowId]);
    expect(await ids({ kind: 'notification', status: 'retried' })).toEqual([]);
  });

  it('a workflow_action item is decided by the workflow concern: audited, racing decisions 409, the job kept', async () => {
    const deps = {
      notifications: notificationStore(db),
      clock: systemClock,
      allowLoopback: false,
      reviewDeciders: {
        workflow_action: decideWorkflowAction.bind(null, {
          jobs: workflowJobStore(db),
          runs: workflowRunStore(db),
          rules: workflowRuleStore(db),
          clock: systemClock,
        }),
      },
    };
    const results = await Promise.allSettled([
      decideReviewItem(deps, operator, T, workflowId, { action: 'retry', note: 'fixed' }),
      decideReviewItem(deps, principal('other', {}, true), T, workflowId, { action: 'discard' }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(lost?.reason).toBeInstanceOf(InvalidTransitionError);
    const stored = await workflowJobStore(db).getJob(T, workflowId);
    expect(stored?.job).toEqual(job);
    expect(stored?.review.status).toBe((won[0] as PromiseFulfilledResult<ReviewItem>).value.status);
    expect(await list({ kind: 'workflow_action', status: 'open' })).toEqual([]);
    const audits = await drain((cursor) =>
      auditStore(db).list(T, { entity_type: 'review_item', entity_id: workflowId }, { limit: 10, cursor }),
    );
    expect(audits.map((a) => a.event_type)).toEqual(['review_item.decided']);
    // Without a decider for the kind, the item cannot be decided through the notification path.
    const other = workflowItem();
    await workflowJobStore(db).openReview(other, job, audit(T, 'workflow_rule', 'rule-1'));
    await expect(
      decideReviewItem({ ...deps, reviewDeciders: {} }, operator, T, other.id, { action: 'discard' }),
    ).rejects.toThrow(InvalidTransitionError);
  });
});

describe('review item lists at any size (docs/api.md section 4)', () => {
  const item = (tenant: string, kind: ReviewItem['kind'], status: ReviewItem['status']) =>
    storedReviewItem({ ...workflowItem(), id: newId(), tenant_id: tenant, kind, status });
  const ids = (items: Record<string, unknown>[]) => items.map((i) => i.id as string).reverse();
  let fewKinds: string[];
  let fewOpen: string[];
  beforeAll(async () => {
    // The few matching items first: the 300 others are newer, between them and the first page.
    const kinds = [1, 2, 3].map(() => item('kinds', 'workflow_action', 'discarded'));
    const open = [1, 2, 3].map(() => item('open-kinds', 'workflow_action', 'open'));
    fewKinds = ids(kinds);
    fewOpen = ids(open);
    await loadItems(db, [
      ...kinds,
      ...open,
      ...Array.from({ length: 300 }, () => item('kinds', 'notification', 'retried')),
      ...Array.from({ length: 300 }, () => item('open-kinds', 'workflow_action', 'discarded')),
    ]);
  });

  const page = async (tenant: string, filter: Parameters<typeof list>[0]) => {
    const counted = countingQueries(db);
    const out = await notificationStore(counted.db).listReviewItems(tenant, filter, { limit: 20 });
    return { ids: out.items.map((i) => i.id), cursor: out.next_cursor, queries: counted.queries };
  };

  it('by kind: 3 among 300 of another kind fill the first page, read alone, with no cursor', async () => {
    expect(await page('kinds', { kind: 'workflow_action' })).toEqual({
      ids: fewKinds,
      cursor: null,
      queries: [{ scanned: 3, index: 'gsi2' }],
    });
  });

  it('by status: 3 among 300 of another status fill the first page, read alone, with no cursor', async () => {
    expect(await page('kinds', { status: 'discarded' })).toEqual({
      ids: fewKinds,
      cursor: null,
      queries: [{ scanned: 3, index: 'gsi1' }],
    });
  });

  it('by kind and status open: 3 among 300 decided of that kind, read alone, with no cursor', async () => {
    expect(await page('open-kinds', { kind: 'workflow_action', status: 'open' })).toEqual({
      ids: fewOpen,
      cursor: null,
      queries: [{ scanned: 3, index: 'gsi3' }],
    });
  });
});
