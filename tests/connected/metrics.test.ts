import type { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPut } from '#functions/adapters/audit-store';
import type { Db } from '#functions/adapters/dynamo';
import { putNew } from '#functions/adapters/records';
import { transact } from '#functions/adapters/transact';
import { metricsStore, queueGauge } from '#functions/adapters/metrics-store';
import { markRelayed, outboxPut } from '#functions/adapters/outbox';
import { workflowJobStore } from '#functions/adapters/workflow-job-store';
import { LocalQueues } from '#local/queues';
import { auditEvent } from '#shared/domain/audit';
import { metricsSnapshot } from '#shared/domain/metrics/snapshot';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import { decidedReviewItem, openReviewItem } from '#shared/domain/review';
import { newId, systemClock } from '#shared/kernel/ids';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { reviewItem, reviewKeys } from '#shared/table/entities/review-item';
import { freshDb } from '#tests/support/db';
import { localSqsClient } from '#tests/support/local-sqs';
import { outboxEvent } from '#tests/support/outbox';

/**
 * Connected: the operator's metrics (docs/api.md section 9.6) over DynamoDB Local by Query only,
 * and queue depths through the real SQS client against the local queues' endpoint.
 */

let db: Db;
const NOW = new Date('2026-11-22T12:00:00.000Z');
const clock = { now: () => NOW };
const at = (secondsAgo: number) => new Date(NOW.getTime() - secondsAgo * 1000).toISOString();

beforeAll(async () => {
  ({ db } = await freshDb());
});

const review = (tenantId: string, kind: 'notification' | 'workflow_action'): ReviewItem =>
  openReviewItem(
    {
      id: newId(),
      tenant_id: tenantId,
      kind,
      subject_id: newId(),
      notification_id: kind === 'notification' ? newId() : null,
      channel: kind === 'notification' ? 'email' : null,
      reason: 'provider_failed',
      detail: null,
    } as never,
    at(60),
  );

describe('metrics store (Query only)', () => {
  const store = () => metricsStore(db);

  it('counts outbox events not yet relayed, across shards, and finds the oldest', async () => {
    expect(await store().outboxBacklog()).toEqual({ pending: 0, oldest_occurred_at: null });
    const events = [300, 90, 5].map((s, i) =>
      outboxEvent('in_app', { tenantId: `t${i}`, occurredAt: at(s) }),
    );
    for (const e of events) expect((await transact(db, [outboxPut(e)])).ok).toBe(true);
    expect(await store().outboxBacklog()).toEqual({ pending: 3, oldest_occurred_at: at(300) });
    await markRelayed(db, events[0]!.event_id, NOW);
    expect(await store().outboxBacklog()).toEqual({ pending: 2, oldest_occurred_at: at(90) });
  });

  it('counts open review items of every tenant by kind; a decided one leaves the count', async () => {
    const kinds = ['notification', 'workflow_action'];
    const before = await store().openReviewItems(kinds);
    expect(before).toEqual({ notification: 0, workflow_action: 0 });
    const jobs = workflowJobStore(db);
    const audit = (tenantId: string) =>
      auditEvent(systemClock, {
        tenant_id: tenantId,
        event_type: 'review_item.opened',
        actor_id: null,
        entity_type: 'review_item',
        entity_id: newId(),
        summary: 'opened',
      });
    const failed = [review('acme', 'workflow_action'), review('globex', 'workflow_action')];
    for (const r of failed) expect(await jobs.openReview(r, {} as never, audit(r.tenant_id))).toBe(true);
    // A notification item as the notification store writes it (with its keys).
    const gated = review('acme', 'notification');
    expect(
      (await transact(db, [putNew(reviewItem.item(gated, reviewKeys(gated))), auditPut(audit('acme'))])).ok,
    ).toBe(true);
    expect(await store().openReviewItems(kinds)).toEqual({ notification: 1, workflow_action: 2 });

    const decided = decidedReviewItem(failed[0]!, { action: 'discard' } as never, 'u1', at(1));
    expect(await jobs.decide(decided, audit('acme'), null)).toBe(true);
    expect(await store().openReviewItems(kinds)).toEqual({ notification: 1, workflow_action: 1 });
  });
});

describe('queue gauge and the snapshot', () => {
  let queues: LocalQueues;
  let sqs: SQSClient;
  beforeAll(async () => {
    queues = new LocalQueues({ visibilityTimeoutSeconds: 30, maxReceiveCount: 5, msPerSecond: 1000 });
    await queues.listen();
    queues.create(QUEUES.internal, dlqName(QUEUES.internal));
    queues.create(QUEUES.external, dlqName(QUEUES.external));
    sqs = localSqsClient(queues);
  });
  afterAll(async () => {
    sqs.destroy();
    await queues.stop();
  });

  it('answers visible, in-flight and DLQ depth per queue, the backlog age and generated_at', async () => {
    const internal = queues.queues.get(QUEUES.internal)!;
    for (let i = 0; i < 3; i++) internal.send(`{"n":${i}}`);
    internal.receive(1);
    queues.queues.get(dlqName(QUEUES.external))!.send('{}');
    const urls = {
      internal: queues.url(QUEUES.internal),
      external: queues.url(QUEUES.external),
      internalDlq: queues.url(dlqName(QUEUES.internal)),
      externalDlq: queues.url(dlqName(QUEUES.external)),
    };
    const snapshot = await metricsSnapshot({
      queues: queueGauge(sqs, urls),
      store: metricsStore(db),
      clock,
      reviewKinds: ['notification', 'workflow_action'],
    });
    expect(snapshot).toEqual({
      generated_at: NOW.toISOString(),
      queues: [
        { name: QUEUES.internal, visible: 2, in_flight: 1, dlq_depth: 0 },
        { name: QUEUES.external, visible: 0, in_flight: 0, dlq_depth: 1 },
      ],
      // What the store tests above left pending: the oldest is 90 s old.
      outbox: { pending: 2, oldest_age_seconds: 90 },
      review_items_open: { notification: 1, workflow_action: 1 },
    });
  });
});
