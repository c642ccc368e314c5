import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { OutboxEvent } from '#shared/domain/outbox';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { markRelayed, pendingOlderThan } from '#functions/adapters/outbox';
import { publishEvents } from '#functions/adapters/queue';
import { logger, metricsFor, publishRecorded } from '#functions/observability';
import type { RelayDeps } from '#functions/relay/outbox-relay';

/**
 * The recovery sweeper (scheduled).
 * 1. Query each shard of the sparse pending index for items older than `afterMs`.
 * 2. Publish them again (10 per call) and mark the published ones relayed.
 * Safe next to the relay: publishing twice is harmless (consumers are idempotent on
 * `idempotency_key`) and marking relayed is idempotent.
 */
export function createSweeper(deps: RelayDeps, afterMs: number) {
  const metrics = metricsFor('sweeper');
  return async (): Promise<{ republished: number; failed: number }> => {
    const cutoff = new Date(deps.clock.now().getTime() - afterMs).toISOString();
    let republished = 0;
    let failedCount = 0;
    let batch: OutboxEvent[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const failed = await publishEvents(deps.sqs, deps.queues, batch);
      for (const e of batch) {
        const cause = failed.get(e.event_id);
        if (cause) {
          // Left pending (still in gsi3): the next sweep publishes it again.
          failedCount++;
          logger.warn('sweeper publish failed', {
            event: LOG_EVENTS.outboxRelayFailed,
            event_id: e.event_id,
            kind: e.kind,
            error: cause,
          });
          continue;
        }
        await markRelayed(deps.db, e.event_id, deps.clock.now());
        republished++;
        logger.warn('outbox item re-published by the sweeper', {
          event: LOG_EVENTS.outboxRepublished,
          event_id: e.event_id,
          kind: e.kind,
          tenant_id: e.tenant_id,
          age_ms: deps.clock.now().getTime() - Date.parse(e.occurred_at),
        });
      }
      batch = [];
    };
    for await (const e of pendingOlderThan(deps.db, cutoff)) {
      batch.push(e);
      if (batch.length >= 50) await flush();
    }
    await flush();
    metrics.addMetric(METRICS.sweeperRepublished, MetricUnit.Count, republished);
    if (failedCount) metrics.addMetric(METRICS.relayFailed, MetricUnit.Count, failedCount);
    publishRecorded(metrics);
    return { republished, failed: failedCount };
  };
}
