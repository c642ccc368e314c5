import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { auditEvent } from '#shared/domain/audit';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import { openReviewItem } from '#shared/domain/review';
import type { ExportRunDeps } from './export-run-types';
import type { AccountingExport, StoredExport } from './ports';

/**
 * How a run writes where it left the export (export-gate.ts, export-settle.ts): the system's audit
 * event, the review item a person acts on, and the one conditional write under the run's lease
 * that puts them down with the export and its outbox event.
 */

export const systemAudit = (
  clock: Clock,
  e: AccountingExport,
  verb: string,
  summary: string,
  metadata: Record<string, unknown>,
) =>
  auditEvent(clock, {
    tenant_id: e.tenant_id,
    event_type: `accounting_export.${verb}`,
    actor_id: null,
    entity_type: 'accounting_export',
    entity_id: e.id,
    summary,
    metadata,
  });

export const reviewFor = (
  e: AccountingExport,
  now: string,
  reason: ReviewItem['reason'],
  detail: string,
): ReviewItem =>
  openReviewItem(
    {
      id: newId(),
      tenant_id: e.tenant_id,
      kind: 'accounting_export',
      subject_id: e.id,
      notification_id: null,
      channel: null,
      reason,
      detail,
    },
    now,
  );

export async function finish(
  deps: ExportRunDeps,
  next: StoredExport,
  leaseUntil: string,
  audit: ReturnType<typeof auditEvent>,
  review: ReviewItem | null,
  outbox: OutboxEvent | null,
) {
  if (!(await deps.exports.finish(next, leaseUntil, audit, review, outbox)))
    throw new Error('the export changed under the run: its lease expired');
}
