import type { Clock } from '#shared/kernel/ids';
import { QUEUES } from '#shared/kernel/names';
import type { MetricsStore, QueueDepth, QueueGauge } from './ports';

export interface MetricsDeps {
  queues: QueueGauge;
  store: MetricsStore;
  clock: Clock;
  /** The review kinds to report, each with a count (zero when none is open). */
  reviewKinds: readonly string[];
}

export interface MetricsSnapshot {
  generated_at: string;
  queues: ({ name: string } & QueueDepth)[];
  outbox: { pending: number; oldest_age_seconds: number | null };
  review_items_open: Record<string, number>;
}

/**
 * The operator's snapshot (docs/api.md section 9.6): every delivery queue with its DLQ, the
 * outbox events the relay has not published yet and how old the oldest is, and the open review
 * items of every tenant by kind. The reads run at once; any failing one fails the snapshot (503).
 */
export async function metricsSnapshot(deps: MetricsDeps): Promise<MetricsSnapshot> {
  const names = Object.values(QUEUES);
  const [depths, backlog, open] = await Promise.all([
    Promise.all(names.map((name) => deps.queues.depth(name))),
    deps.store.outboxBacklog(),
    deps.store.openReviewItems(deps.reviewKinds),
  ]);
  const now = deps.clock.now();
  const oldest = backlog.oldest_occurred_at;
  return {
    generated_at: now.toISOString(),
    queues: names.map((name, i) => ({ name, ...depths[i]! })),
    outbox: {
      pending: backlog.pending,
      oldest_age_seconds:
        oldest === null ? null : Math.max(0, Math.floor((now.getTime() - Date.parse(oldest)) / 1000)),
    },
    review_items_open: Object.fromEntries(deps.reviewKinds.map((kind) => [kind, open[kind] ?? 0])),
  };
}
