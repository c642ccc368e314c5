import type { QueueName } from '#shared/kernel/names';

/** Messages of one queue as SQS counts them (approximate in the cloud, exact locally). */
export interface QueueDepth {
  visible: number;
  in_flight: number;
  /** Messages in the queue's DLQ. */
  dlq_depth: number;
}

/** SQS queue attributes in the cloud; the in-process queues' own counts on the local runtime. */
export interface QueueGauge {
  depth(queue: QueueName): Promise<QueueDepth>;
}

/** Outbox events not yet relayed, and when the oldest of them happened (null when none is). */
export interface OutboxBacklog {
  pending: number;
  oldest_occurred_at: string | null;
}

/** The table, by Query only: the sparse indexes that hold what is pending or open. */
export interface MetricsStore {
  outboxBacklog(): Promise<OutboxBacklog>;
  /** Open review items of every tenant, for each of `kinds`. */
  openReviewItems(kinds: readonly string[]): Promise<Record<string, number>>;
}
