import type { Clock } from '#shared/kernel/ids';
import type { OutboxEvent } from '#shared/domain/outbox';
import { exportRequested } from '#shared/domain/accounting/events';
import type { Timer } from './ports';

/**
 * An `export_window` firing (shared/domain/accounting/export-window.ts arms it): the export's run
 * is asked for again. The run itself decides what it finds (an export exported or discarded
 * meanwhile is skipped, one still before its retry time waits), so a stale or redelivered firing
 * sends nothing twice. Only the request event's builder comes from the accounting code.
 */
export async function fireExportWindow(
  deps: { clock: Clock; requeue: (event: OutboxEvent) => Promise<void> },
  timer: Timer,
): Promise<'written'> {
  await deps.requeue(exportRequested(deps.clock, { id: timer.subject_id, tenant_id: timer.tenant_id }));
  return 'written';
}
