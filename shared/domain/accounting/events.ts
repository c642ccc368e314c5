import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { AccountingExport } from './ports';

/**
 * The outbox event that asks the external worker to run an export (docs/api.md section 9.2),
 * written with the export and with a review's retry. Apart from the use cases so the
 * notifications function, which decides review items, bundles only this.
 */

/** Stable per export, so a review's retry keeps the key of the export's messages. */
const exportIdempotencyKey = (tenantId: string, exportId: string) =>
  `accounting-export:${tenantId}:${exportId}`;

export const exportRequested = (
  clock: Clock,
  e: Pick<AccountingExport, 'id' | 'tenant_id'>,
): OutboxEvent => ({
  event_id: newId(),
  kind: EVENT_KINDS.accountingExportRequested,
  tenant_id: e.tenant_id,
  idempotency_key: exportIdempotencyKey(e.tenant_id, e.id),
  occurred_at: clock.now().toISOString(),
  payload: { export_id: e.id },
});
