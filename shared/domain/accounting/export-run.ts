import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import type { ErrorCode } from './error-classes';
import type { ExportOutcome, ExportRunDeps, Sent } from './export-run-types';
import { recordOnConnection, sendDocuments } from './export-send';
import { gate, notYet } from './export-gate';
import { settle } from './export-settle';
import type { StoredExport } from './ports';
import { publicExport } from './use-cases';

export type { ExportOutcome, ExportRunDeps } from './export-run-types';

/**
 * The external worker's use case of the accounting export (docs/api.md section 9.2): one
 * `accounting.export.requested` message in, one decision out (ack, retry later, or let the queue
 * dead-letter it after the export was marked failed).
 *
 * Booked once: each document has a record at `export_booking` that is claimed (`sending`, under
 * the run's lease) before its call and set to `booked` with the target's `external_id` after it,
 * so a later run (a retry, a redelivered or redriven message, a review's retry) sends only what
 * is not booked. A crash between the call and the record leaves `sending`: the next run resolves
 * it before sending again — by the same idempotency key where the target keeps keys (and within
 * their retention), by a lookup of the document's reference where the adapter declares one,
 * and otherwise not at all (`outcome_unknown`, for a person to check).
 */

const RUNNABLE = new Set(['queued', 'retrying', 'exporting']);

/** `simulate_failure` (docs/api.md section 9.2): the error every pending document gets, no call made. */
function simulated(e: StoredExport): ErrorCode | undefined {
  if (e.simulate_failure === 'permanent') return 'validation_rejected';
  if (e.simulate_failure === 'retryable' && e.attempts.length === 0) return 'target_unavailable';
  return undefined;
}

const allPending = (e: StoredExport, error: ErrorCode): Sent => ({
  outcomes: new Map(
    e.items.filter((i) => i.status === 'pending').map((i) => [i.index, { ok: false, error }]),
  ),
  calls: 0,
  sent: 0,
  retryAfterSeconds: 0,
});

/**
 * Run one export message.
 * 1. Read the export; exported is a duplicate, any other end state is skipped (acknowledged).
 * 2. Take the run's lease (conditional write); held by another run: retry after the lease.
 * 3. Resolve the connection (`integration_connection_id`, else the tenant's active `accounting`
 *    connection); none: `gated` with a review item.
 * 4. Send what is not booked (`sendDocuments`), unless `simulate_failure` fails the attempt, and
 *    record what the target answered on the connection's health (`recordOnConnection`).
 * 5. All booked: `exported`. Retryable failures with attempts left: `retrying`, after the backoff
 *    or the target's Retry-After, whichever is longer. Otherwise `failed` (nothing booked) or
 *    `partially_exported`, with a review item and the `accounting_export.failed` workflow
 *    event, written before the message is acknowledged or reaches the DLQ.
 */
export async function runExport(
  deps: ExportRunDeps,
  exportId: string,
  tenantId: string,
  receiveCount: number,
): Promise<ExportOutcome> {
  const found = await deps.exports.get(tenantId, exportId);
  if (!found) return { action: 'ack', result: 'skipped', reason: 'not_found' };
  if (found.status === 'exported') return { action: 'ack', result: 'duplicate', export: publicExport(found) };
  if (!RUNNABLE.has(found.status))
    return { action: 'ack', result: 'skipped', export: publicExport(found), reason: found.status };

  const start = deps.clock.now();
  const startedAt = start.toISOString();
  const leaseUntil = new Date(start.getTime() + deps.leaseSeconds * 1000).toISOString();
  if (!(await deps.exports.lease(found, leaseUntil, startedAt))) return notYet(deps, found, start);
  const e: StoredExport = { ...found, status: 'exporting', updated_at: startedAt, lease_until: leaseUntil };

  let sent: Sent;
  const simulation = simulated(e);
  if (simulation) sent = allPending(e, simulation);
  else {
    const active = await deps.connections.findActiveConnection(
      tenantId,
      e.integration_connection_id ? { id: e.integration_connection_id } : { category: 'accounting' },
    );
    if (!active) return gate(deps, e, leaseUntil);
    const adapter = adapterByKey(active.connection.adapter_key);
    const target =
      adapter?.category === 'accounting'
        ? deps.targets.open(active.connection, await active.secret())
        : undefined;
    e.integration_connection_id = active.connection.id;
    sent =
      target && adapter
        ? await sendDocuments(deps, e, target, adapter.operations, leaseUntil)
        : allPending(e, 'not_configured');
    await recordOnConnection(deps, e, sent);
  }
  return settle(deps, e, sent, leaseUntil, receiveCount);
}
